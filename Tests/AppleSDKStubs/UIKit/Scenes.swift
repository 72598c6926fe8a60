// Scene-session and class declarations DwellUIKit uses that ../shared/apple-sdk-stubs lacks,
// copied from Apple's documentation (iOS 18). Compiled into the UIKit stub module by `check`.

/// https://developer.apple.com/documentation/uikit/uiscenesession
/// `@MainActor class UISceneSession` (an NSObject subclass; iOS 13.0+).
@MainActor @preconcurrency
open class UISceneSession: NSObject {
  /// https://developer.apple.com/documentation/uikit/uiscenesession/role-swift.struct
  /// `struct Role` (NS_TYPED_ENUM UISceneSessionRole over NSString: imported as a
  /// Hashable, RawRepresentable struct of String).
  public struct Role: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/uikit/uiscenesession/role-swift.struct/windowapplication
    /// `static let windowApplication: UISceneSession.Role` (UIWindowSceneSessionRoleApplication)
    public static let windowApplication = Role(rawValue: "UIWindowSceneSessionRoleApplication")
    /// https://developer.apple.com/documentation/uikit/uiscenesession/role-swift.struct/cartemplateapplication
    /// `static let carTemplateApplication: UISceneSession.Role` (CPTemplateApplicationSceneSessionRoleApplication)
    public static let carTemplateApplication = Role(rawValue: "CPTemplateApplicationSceneSessionRoleApplication")
  }

  /// https://developer.apple.com/documentation/uikit/uiscenesession/role-swift.property
  /// `var role: UISceneSession.Role { get }`
  open var role: UISceneSession.Role { .windowApplication }
}

extension UIScene {
  /// https://developer.apple.com/documentation/uikit/uiscene/session
  /// `var session: UISceneSession { get }`
  @objc public var session: UISceneSession { UISceneSession() }
}

extension NSObject {
  /// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/classforcoder
  /// `var classForCoder: AnyClass { get }`: NSObject's implementation returns the receiver's
  /// class (`-class`, which a KVO subclass answers with the observed class). Declared by
  /// Apple in Foundation's NSObject category; Foundation here is corelibs, whose NSObject is
  /// another class (see the stubs' README), so it is declared here, reached through UIKit.
  @objc public var classForCoder: AnyClass { type(of: self) }
}
