// Declarations DwellUIKit and DwellSwiftUI use that ../shared/apple-sdk-stubs lacks, copied
// from Apple's documentation (iOS 18). Compiled into the UIKit stub module by `check`.
// UIKit classes are @MainActor (NS_SWIFT_UI_ACTOR) and so are their members.

/// https://developer.apple.com/documentation/uikit/uiwindowscene
/// `@MainActor class UIWindowScene` (a UIScene subclass; iOS 13.0+).
@MainActor @preconcurrency
open class UIWindowScene: UIScene {
  /// https://developer.apple.com/documentation/uikit/uiwindowscene/windows
  /// `var windows: [UIWindow] { get }`
  @objc open var windows: [UIWindow] { [] }
}

extension UIWindow {
  /// https://developer.apple.com/documentation/uikit/uiwindow/windowscene
  /// `weak var windowScene: UIWindowScene? { get set }`
  @objc public var windowScene: UIWindowScene? {
    get { nil }
    set {}
  }
}

extension UIView {
  /// https://developer.apple.com/documentation/uikit/uiview/window
  /// `var window: UIWindow? { get }`
  @objc public var window: UIWindow? { nil }
}

extension UIViewController {
  /// https://developer.apple.com/documentation/uikit/uiviewcontroller/viewifloaded
  /// `var viewIfLoaded: UIView? { get }` (iOS 9.0+)
  @objc public var viewIfLoaded: UIView? { nil }
}

extension UIApplication {
  /// https://developer.apple.com/documentation/uikit/uiapplication/connectedscenes
  /// `var connectedScenes: Set<UIScene> { get }` (iOS 13.0+)
  @objc public var connectedScenes: Set<UIScene> { [] }
}

extension UIScene {
  /// https://developer.apple.com/documentation/uikit/uiscene/activationstate-swift.enum
  /// `enum ActivationState` (NS_ENUM UISceneActivationState: unattached = -1,
  /// foregroundActive = 0, foregroundInactive = 1, background = 2; not frozen).
  @objc public enum ActivationState: Int, @unchecked Sendable {
    case unattached = -1
    case foregroundActive = 0
    case foregroundInactive = 1
    case background = 2
  }

  /// https://developer.apple.com/documentation/uikit/uiscene/activationstate-swift.property
  /// `var activationState: UIScene.ActivationState { get }`
  @objc public var activationState: UIScene.ActivationState { .unattached }
}
