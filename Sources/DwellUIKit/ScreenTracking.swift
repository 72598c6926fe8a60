#if canImport(UIKit) && !os(watchOS)
  public import Dwell
  public import UIKit
  internal import ObjectiveC

  /// A controller that names itself, or opts in or out of tracking.
  ///
  /// ```swift
  /// extension LessonsViewController: DwellScreen {
  ///   var dwellScreenName: String? { "Lessons" }
  /// }
  /// extension DebugMenuController: DwellScreen {
  ///   var dwellIsTracked: Bool? { false }
  /// }
  /// ```
  @MainActor
  public protocol DwellScreen: UIViewController {
    /// The screen's name; `nil` for the cleaned class name.
    var dwellScreenName: String? { get }
    /// `true` to always track, `false` never, `nil` to follow the policy.
    var dwellIsTracked: Bool? { get }
  }

  extension DwellScreen {
    public var dwellScreenName: String? { nil }
    public var dwellIsTracked: Bool? { nil }
  }

  /// Screen tracking for UIKit: automatic (one call) or explicit (no swizzling).
  ///
  /// ```swift
  /// // AppDelegate.application(_:didFinishLaunchingWithOptions:)
  /// Tracker.configureShared(configuration)
  /// DwellUIKit.start(tracker: .shared)               // lifecycle, touches, clock changes
  /// DwellUIKit.trackScreensAutomatically()           // every content view controller
  /// ```
  @MainActor
  public enum DwellUIKit {
    static var tracker: Tracker?
    static var coordinator: ScreenCoordinator?
    static var lifecycle: LifecycleObserver?
    static var swizzled = false

    /// Starts app lifecycle tracking (scenes or the application), idle touches and clock
    /// and time-zone changes, and commits in a background task when the app leaves.
    public static func start(tracker: Tracker = .shared, policy: ScreenPolicy = ScreenPolicy()) {
      guard self.tracker == nil else { return }
      self.tracker = tracker
      coordinator = ScreenCoordinator(policy: policy) { event in tracker.record(event) }
      lifecycle = LifecycleObserver(tracker: tracker)
    }

    /// The policy for what counts as a screen (containers, children, exclusions).
    public static var policy: ScreenPolicy {
      get { coordinator?.policy ?? ScreenPolicy() }
      set { coordinator?.policy = newValue }
    }

    /// Tracks every view controller's appearance by exchanging the implementations of
    /// `viewDidAppear(_:)` and `viewDidDisappear(_:)` once. For teams that forbid method
    /// swizzling, call ``screenDidAppear(_:)``/``screenDidDisappear(_:)`` instead, or
    /// subclass ``TrackedViewController``.
    public static func trackScreensAutomatically() {
      guard !swizzled else { return }
      swizzled = true
      exchange(#selector(UIViewController.viewDidAppear(_:)), #selector(UIViewController.dwell_viewDidAppear(_:)))
      exchange(
        #selector(UIViewController.viewDidDisappear(_:)), #selector(UIViewController.dwell_viewDidDisappear(_:)))
    }

    private static func exchange(_ original: Selector, _ replacement: Selector) {
      guard let a = class_getInstanceMethod(UIViewController.self, original),
        let b = class_getInstanceMethod(UIViewController.self, replacement)
      else { return }
      method_exchangeImplementations(a, b)
    }

    /// Call from `viewDidAppear(_:)` (explicit mode).
    public static func screenDidAppear(_ controller: UIViewController) {
      guard let coordinator else { return }
      let description = describe(controller)
      coordinator.didAppear(description)
      if controller.presentingViewController != nil, controller.isBeingPresented {
        coordinator.didPresent(description, style: presentation(of: controller))
      }
    }

    /// Call from `viewDidDisappear(_:)` (explicit mode).
    public static func screenDidDisappear(_ controller: UIViewController) {
      guard let coordinator else { return }
      let description = describe(controller)
      if controller.isBeingDismissed {
        coordinator.didDismiss(description)
      } else {
        coordinator.didDisappear(description)
      }
    }

    static func presentation(of controller: UIViewController) -> ScreenCoordinator.Presentation {
      switch controller.modalPresentationStyle {
      case .overFullScreen, .overCurrentContext, .fullScreen, .currentContext: return .fullScreen
      default: return .sheet  // page and form sheets, popovers, automatic
      }
    }

    static func kind(of controller: UIViewController) -> ControllerDescription.Kind {
      if controller is UINavigationController || controller is UITabBarController
        || controller is UIPageViewController || controller is UISplitViewController
      {
        return .container
      }
      let name = String(describing: type(of: controller))
      if ScreenPolicy.systemClasses.contains(name) || name.hasPrefix("_") || controller is UIAlertController
        || controller is UIInputViewController
      {
        return .system
      }
      return .content
    }

    static func describe(_ controller: UIViewController) -> ControllerDescription {
      let named = controller as? any DwellScreen
      return ControllerDescription(
        id: ScreenInstance(ObjectIdentifier(controller)), className: String(reflecting: type(of: controller)),
        kind: kind(of: controller), parentKind: controller.parent.map(kind(of:)),
        customName: named?.dwellScreenName, optIn: named?.dwellIsTracked)
    }
  }

  extension UIViewController {
    @objc dynamic func dwell_viewDidAppear(_ animated: Bool) {
      dwell_viewDidAppear(animated)  // the original, after the exchange
      DwellUIKit.screenDidAppear(self)
    }

    @objc dynamic func dwell_viewDidDisappear(_ animated: Bool) {
      dwell_viewDidDisappear(animated)
      DwellUIKit.screenDidDisappear(self)
    }
  }

  /// A base class for explicit tracking without swizzling.
  open class TrackedViewController: UIViewController {
    open override func viewDidAppear(_ animated: Bool) {
      super.viewDidAppear(animated)
      DwellUIKit.screenDidAppear(self)
    }

    open override func viewDidDisappear(_ animated: Bool) {
      super.viewDidDisappear(animated)
      DwellUIKit.screenDidDisappear(self)
    }
  }
#endif
