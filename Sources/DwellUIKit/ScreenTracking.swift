#if canImport(UIKit) && !os(watchOS)
  public import Dwell
  public import UIKit

  /// A controller that names itself, or opts in or out of tracking.
  ///
  /// ```swift
  /// extension LessonsViewController: DwellScreen {
  ///   var dwellScreenName: String? { "Lessons" }
  /// }
  /// extension DebugMenuController: DwellScreen {
  ///   var dwellIsTracked: Bool { false }
  /// }
  /// ```
  ///
  /// Both requirements are optional Objective-C requirements, read through the Objective-C
  /// runtime on the controller itself (`respondsToSelector:`, then a message send), never
  /// through a default in a protocol extension: a subclass's own `dwellScreenName` or
  /// `dwellIsTracked` is always the one used, also when only its superclass adopted the
  /// protocol (its members that match a requirement are `@objc`), and one that overrides the
  /// superclass's is dispatched dynamically like any `@objc` member. Not implemented means
  /// the default: the cleaned class name, and the policy decides whether it is tracked.
  @MainActor @objc
  public protocol DwellScreen {
    /// The screen's name; `nil` (or not implemented) for the cleaned class name.
    @objc optional var dwellScreenName: String? { get }
    /// `true` to always track, `false` never; not implemented to follow the policy.
    @objc optional var dwellIsTracked: Bool { get }
  }

  extension DwellUIKit {
    /// The name `controller` gives itself (``DwellScreen/dwellScreenName``), if any.
    static func customName(of controller: UIViewController) -> String? {
      guard let screen = controller as? any DwellScreen, let name = screen.dwellScreenName else { return nil }
      return name
    }

    /// Whether `controller` opts in or out (``DwellScreen/dwellIsTracked``), `nil` to follow the policy.
    static func optIn(of controller: UIViewController) -> Bool? {
      (controller as? any DwellScreen)?.dwellIsTracked
    }
  }

  /// Screen tracking for UIKit: automatic (one call) or explicit (no swizzling).
  ///
  /// ```swift
  /// // AppDelegate.application(_:didFinishLaunchingWithOptions:)
  /// Tracker.configureShared(configuration)
  /// DwellUIKit.start(tracker: .shared)               // lifecycle, touches, clock changes
  /// DwellUIKit.trackScreensAutomatically()           // every content view controller
  /// ```
  ///
  /// An app whose SwiftUI root view has `trackAppLifecycle()` starts with
  /// `start(tracker:tracksAppLifecycle: false)`: its UIKit screens are tracked and the app
  /// lifecycle is fed once, by SwiftUI.
  @MainActor
  public enum DwellUIKit {
    static var tracker: Tracker?
    /// Exists before ``start(tracker:policy:tracksAppLifecycle:)``: the policy set and the
    /// screens shown before it are kept.
    static let coordinator = ScreenCoordinator()
    static var lifecycle: LifecycleObserver?
    /// The controllers whose screens are shown, to find those UIKit no longer shows.
    static var controllers: [ScreenInstance: Weak] = [:]
    static var superclasses: [ObjectIdentifier: [String]] = [:]

    final class Weak {
      weak var controller: UIViewController?
      init(_ controller: UIViewController) { self.controller = controller }
    }

    /// Starts tracking: screens (those already shown are adopted), scene changes, touches of
    /// every window for the idle timeout, clock and time-zone changes, termination, and the
    /// app lifecycle with a commit in a background task when the app leaves. With
    /// `tracksAppLifecycle: false` the app lifecycle is left to SwiftUI's `trackAppLifecycle()`.
    /// `policy`, if given, replaces ``policy``.
    public static func start(
      tracker: Tracker = .shared, policy: ScreenPolicy? = nil, tracksAppLifecycle: Bool = true
    ) {
      guard self.tracker == nil else { return }
      self.tracker = tracker
      if let policy { coordinator.policy = policy }
      lifecycle = LifecycleObserver(tracker: tracker, screens: coordinator, feedsAppLifecycle: tracksAppLifecycle)
      coordinator.start { event in tracker.record(event) }
    }

    /// The policy for what counts as a screen (containers, children, exclusions). It may be
    /// set before or after ``start(tracker:policy:tracksAppLifecycle:)``.
    public static var policy: ScreenPolicy {
      get { coordinator.policy }
      set { coordinator.policy = newValue }
    }

    /// Call from `viewDidAppear(_:)` (explicit mode).
    public static func screenDidAppear(_ controller: UIViewController) {
      reconcile()
      let description = describe(controller)
      coordinator.didAppear(description)
      if coordinator.shownControllers.contains(description.id) { controllers[description.id] = Weak(controller) }
      if controller.presentingViewController != nil, controller.isBeingPresented {
        coordinator.didPresent(description, style: presentation(of: controller))
      }
    }

    /// Call from `viewDidDisappear(_:)` (explicit mode).
    public static func screenDidDisappear(_ controller: UIViewController) {
      let description = describe(controller)
      if controller.isBeingDismissed {
        coordinator.didDismiss(description)
      } else {
        coordinator.didDisappear(description)
      }
      controllers[description.id] = nil
    }

    /// Closes the visits of controllers no longer in a window though UIKit never said they
    /// disappeared (an override of `viewDidDisappear` that does not call `super`), or freed.
    static func reconcile() {
      coordinator.reconcile { id in controllers[id]?.controller?.viewIfLoaded?.window != nil }
      let shown = Set(coordinator.shownControllers)
      controllers = controllers.filter { shown.contains($0.key) }
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
      if controller is UIAlertController || controller is UIInputViewController { return .system }
      return coordinator.policy.kind(
        className: String(reflecting: type(of: controller)), superclassNames: superclassNames(of: controller))
    }

    /// The names of a controller's superclasses, nearest first, up to `UIViewController`.
    static func superclassNames(of controller: UIViewController) -> [String] {
      let key = ObjectIdentifier(type(of: controller))
      if let names = superclasses[key] { return names }
      var names: [String] = []
      var mirror = Mirror(reflecting: controller).superclassMirror
      while let current = mirror, current.subjectType != UIViewController.self {
        names.append(String(reflecting: current.subjectType))
        mirror = current.superclassMirror
      }
      superclasses[key] = names
      return names
    }

    static func describe(_ controller: UIViewController) -> ControllerDescription {
      var ancestors: [UIViewController] = []
      var next = controller.parent
      while let parent = next {
        ancestors.append(parent)
        next = parent.parent
      }
      let kinds = ancestors.map(kind(of:))
      let window = controller.viewIfLoaded?.window
      return ControllerDescription(
        id: ScreenInstance(ObjectIdentifier(controller)), className: String(reflecting: type(of: controller)),
        superclassNames: superclassNames(of: controller), kind: kind(of: controller), parentKind: kinds.first,
        isInsideContent: kinds.contains(.content), customName: customName(of: controller), optIn: optIn(of: controller),
        scene: window?.windowScene.map { ScreenInstance(ObjectIdentifier($0)) },
        window: window.map { ScreenInstance(ObjectIdentifier($0)) },
        root: ancestors.last.map { ScreenInstance(ObjectIdentifier($0)) })
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
