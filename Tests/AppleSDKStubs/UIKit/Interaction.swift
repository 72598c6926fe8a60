// Gesture recognizer API the adapters' interaction observers use (the idle timeout: pointer
// hover, trackpad and mouse scrolling, hardware presses), copied from Apple's documentation
// (iOS 18). UIKit classes and their members are @MainActor (NS_SWIFT_UI_ACTOR).

extension UIGestureRecognizer {
  /// https://developer.apple.com/documentation/uikit/uigesturerecognizer/name
  /// `var name: String? { get set }` (iOS 11.0+)
  @objc public var name: String? {
    get { nil }
    set {}
  }

  /// https://developer.apple.com/documentation/uikit/uigesturerecognizer/allowedtouchtypes
  /// `var allowedTouchTypes: [NSNumber] { get set }` (iOS 9.0+). Deviation: not `@objc` here
  /// (NSNumber is swift-corelibs-foundation's Swift class, not representable).
  public var allowedTouchTypes: [NSNumber] {
    get { [] }
    set {}
  }

  /// https://developer.apple.com/documentation/uikit/uigesturerecognizer/addtarget(_:action:)
  /// `func addTarget(_ target: Any, action: Selector)`. Deviation: not `@objc` here (bridging
  /// `Any` to `id` needs Foundation's Objective-C bridge, which Linux lacks; the compiler crashes).
  public func addTarget(_ target: Any, action: Selector) {}
}

/// https://developer.apple.com/documentation/uikit/uipress
/// `@MainActor class UIPress` (iOS 9.0+)
@MainActor @preconcurrency open class UIPress: NSObject {}

/// https://developer.apple.com/documentation/uikit/uipressesevent
/// `@MainActor class UIPressesEvent` (iOS 9.0+; a UIEvent subclass)
@MainActor @preconcurrency open class UIPressesEvent: UIEvent {}

extension UIGestureRecognizer {
  /// UIGestureRecognizerSubclass.h: `- (void)pressesBegan:(NSSet<UIPress *> *)presses withEvent:(UIPressesEvent *)event;`
  /// https://developer.apple.com/documentation/uikit/uigesturerecognizer/pressesbegan(_:with:)
  /// `func pressesBegan(_ presses: Set<UIPress>, with event: UIPressesEvent)` (iOS 9.0+).
  /// Deviation: declared in an extension (overridable as @objc), like the stub's touchesBegan
  /// visible without the UIGestureRecognizerSubclass import.
  @objc open func pressesBegan(_ presses: Set<UIPress>, with event: UIPressesEvent) {}
}

/// https://developer.apple.com/documentation/uikit/uiscrolltypemask
/// `struct UIScrollTypeMask` (NS_OPTIONS; Sendable, OptionSet; iOS 13.4+)
public struct UIScrollTypeMask: OptionSet, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  /// `static var discrete: UIScrollTypeMask { get }`
  public static var discrete: UIScrollTypeMask { UIScrollTypeMask(rawValue: 1) }
  /// `static var continuous: UIScrollTypeMask { get }`
  public static var continuous: UIScrollTypeMask { UIScrollTypeMask(rawValue: 2) }
  /// `static var all: UIScrollTypeMask { get }`
  public static var all: UIScrollTypeMask { UIScrollTypeMask(rawValue: 3) }
}

/// https://developer.apple.com/documentation/uikit/uipangesturerecognizer
/// `@MainActor class UIPanGestureRecognizer` (iOS 3.2+)
@MainActor @preconcurrency
open class UIPanGestureRecognizer: UIGestureRecognizer {
  /// https://developer.apple.com/documentation/uikit/uipangesturerecognizer/allowedscrolltypesmask
  /// `var allowedScrollTypesMask: UIScrollTypeMask { get set }` (iOS 13.4+). Deviation: not
  /// `@objc` here (a Swift struct stands for the NS_OPTIONS type, which is not representable).
  open var allowedScrollTypesMask: UIScrollTypeMask {
    get { [] }
    set {}
  }
}

/// https://developer.apple.com/documentation/uikit/uihovergesturerecognizer
/// `@MainActor class UIHoverGestureRecognizer` (iOS 13.0+)
@MainActor @preconcurrency
open class UIHoverGestureRecognizer: UIGestureRecognizer {}
