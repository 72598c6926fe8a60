// Declarations DwellSwiftUI's window probe uses that ../shared/apple-sdk-stubs lacks, copied
// from Apple's documentation. Compiled into the UIKit stub module by `check`.
// UIKit classes are @MainActor (NS_SWIFT_UI_ACTOR) and so are their members.

extension UIResponder {
  /// https://developer.apple.com/documentation/uikit/uiresponder/next
  /// `var next: UIResponder? { get }` (iOS 2.0+)
  @objc public var next: UIResponder? { nil }
}

extension UIView {
  /// https://developer.apple.com/documentation/uikit/uiview/didmovetowindow()
  /// `func didMoveToWindow()` (an Objective-C method subclasses override)
  @objc open func didMoveToWindow() {}

  /// https://developer.apple.com/documentation/uikit/uiview/isuserinteractionenabled
  /// `var isUserInteractionEnabled: Bool { get set }`
  @objc public var isUserInteractionEnabled: Bool {
    get { true }
    set {}
  }
}
