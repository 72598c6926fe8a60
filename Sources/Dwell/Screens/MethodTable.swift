// The Objective-C runtime's method table as the hooks use it (real on Apple platforms, faked in tests).

/// The class whose methods ``MethodHooks`` hooks: the Objective-C runtime on Apple platforms
/// (`class_getInstanceMethod`, `method_getImplementation`, `method_setImplementation`,
/// `class_addMethod`), a dictionary in tests.
@MainActor
package protocol MethodTable {
  /// A method's name (`Selector`).
  associatedtype Method: Hashable
  /// A method's implementation (`IMP`).
  associatedtype Implementation: Equatable
  /// The implementation of `method` now, `nil` if the class has no such method.
  func implementation(of method: Method) -> Implementation?
  /// Makes `implementation` the method's; `false` if the class has no such method.
  func setImplementation(_ implementation: Implementation, of method: Method) -> Bool
  /// Adds the marker method to the class itself; `false` if it has it already.
  func addMarker(_ marker: Method) -> Bool
}
