// Objective-C runtime functions DwellUIKit's appearance hooks use that the shared ObjectiveC
// stub (../shared/apple-sdk-stubs/stubs/ObjectiveC, read-only here) does not declare, copied
// from Apple's documentation (framework ObjectiveC, "Objective-C Runtime"; iOS 2.0+, blocks 4.3+).
// Deviation: declared in Swift in the UIKit stub (the checkout's way to add declarations)
// instead of in <objc/runtime.h> of the ObjectiveC module; UIKit re-exports ObjectiveC on
// Apple platforms, so a file importing UIKit finds the same names with the same types.
// They are C functions there (no isolation, not @MainActor); the bodies here are never run.

/// https://developer.apple.com/documentation/objectivec/imp
/// `typealias IMP = OpaquePointer` (`id (*IMP)(id, SEL, ...)`, variadic, so opaque in Swift)
public typealias IMP = OpaquePointer

/// https://developer.apple.com/documentation/objectivec/method_getimplementation(_:)
/// `func method_getImplementation(_ m: Method) -> IMP`
public func method_getImplementation(_ m: Method) -> IMP { m }

/// https://developer.apple.com/documentation/objectivec/method_setimplementation(_:_:)
/// `func method_setImplementation(_ m: Method, _ imp: IMP) -> IMP`
public func method_setImplementation(_ m: Method, _ imp: IMP) -> IMP { imp }

/// https://developer.apple.com/documentation/objectivec/imp_implementationwithblock(_:)
/// `func imp_implementationWithBlock(_ block: Any) -> IMP`
public func imp_implementationWithBlock(_ block: Any) -> IMP { fatalError("stub") }

/// https://developer.apple.com/documentation/objectivec/class_addmethod(_:_:_:_:)
/// `func class_addMethod(_ cls: AnyClass?, _ name: Selector, _ imp: IMP, _ types: UnsafePointer<CChar>?) -> Bool`
public func class_addMethod(_ cls: AnyClass?, _ name: Selector, _ imp: IMP, _ types: UnsafePointer<CChar>?) -> Bool {
  false
}
