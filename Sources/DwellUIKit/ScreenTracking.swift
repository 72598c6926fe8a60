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
      coordinator.handle(.viewDidAppear(description))
      if coordinator.shownControllers.contains(description.id) { controllers[description.id] = Weak(controller) }
    }

    /// Call from `viewDidDisappear(_:)` (explicit mode).
    public static func screenDidDisappear(_ controller: UIViewController) {
      let description = describe(controller)
      coordinator.handle(.viewDidDisappear(description))
      controllers[description.id] = nil
    }

    /// `viewWillAppear(_:)`/`viewWillDisappear(_:)`, for a swizzle that wants them: they never
    /// change what is visible, they only keep each controller's `parent` as last reported.
    static func screenWillAppear(_ controller: UIViewController) {
      coordinator.handle(.viewWillAppear(describe(controller)))
    }

    static func screenWillDisappear(_ controller: UIViewController) {
      coordinator.handle(.viewWillDisappear(describe(controller)))
    }

    /// Closes the visits of controllers no longer in a window though UIKit never said they
    /// disappeared (an override of `viewDidDisappear` that does not call `super`), or freed.
    static func reconcile() {
      coordinator.reconcile { id in controllers[id]?.controller?.viewIfLoaded?.window != nil }
      let shown = Set(coordinator.shownControllers)
      controllers = controllers.filter { shown.contains($0.key) }
    }

    /// What a controller's class is, read once per class: its name and its superclasses'
    /// as the runtime names them, and whether the app or Apple defines it.
    struct ClassFacts {
      var name: String
      var superclasses: [String]
      var origin: ControllerDescription.Origin
    }
    static var classes: [ObjectIdentifier: ClassFacts] = [:]

    /// The facts of the class the controller reports (`classForCoder` answers `-class`): a
    /// controller key-value observing swapped to an `NSKVONotifying_` subclass at run time
    /// reports the class it was made as, and that class's bundle is where it is defined.
    static func classFacts(of controller: UIViewController) -> ClassFacts {
      let reported: AnyClass = controller.classForCoder
      let key = ObjectIdentifier(reported)
      if let facts = classes[key] { return facts }
      // The superclasses of the reported class, nearest first, ending with UIViewController;
      // the object's own chain may begin with a runtime subclass, skipped up to `reported`.
      var names: [String] = []
      var chain: [String] = []  // the object's own superclasses, if `reported` is not on its chain
      var passed = false
      var mirror: Mirror? = Mirror(reflecting: controller)
      while let current = mirror {
        if passed {
          names.append(String(reflecting: current.subjectType))
        } else if ObjectIdentifier(current.subjectType) == key {
          passed = true
        }
        if current.subjectType == UIViewController.self { break }
        mirror = current.superclassMirror
        if let next = mirror { chain.append(String(reflecting: next.subjectType)) }
      }
      if !passed { names = chain }
      let origin = ControllerDescription.Origin(
        bundlePath: Bundle(for: reported).bundlePath, mainBundlePath: Bundle.main.bundlePath)
      let facts = ClassFacts(name: String(reflecting: reported), superclasses: names, origin: origin)
      classes[key] = facts
      return facts
    }

    static func instance(_ object: AnyObject?) -> ScreenInstance? {
      object.map { ScreenInstance(ObjectIdentifier($0)) }
    }

    static func style(of controller: UIViewController) -> ControllerDescription.Style? {
      // The presented controller this one belongs to: itself, or its nearest presented ancestor.
      var presented: UIViewController? = controller
      while let current = presented, current.parent != nil { presented = current.parent }
      guard let presented, presented.presentingViewController != nil else { return nil }
      switch presented.modalPresentationStyle {
      case .fullScreen: return .fullScreen
      case .pageSheet: return .pageSheet
      case .formSheet: return .formSheet
      case .currentContext: return .currentContext
      case .custom: return .custom
      case .overFullScreen: return .overFullScreen
      case .overCurrentContext: return .overCurrentContext
      case .popover: return .popover
      case .automatic: return .automatic
      case .none: return .other
      @unknown default: return .other
      }
    }

    /// The controller's facts now, as ``ScreenCoordinator/handle(_:)`` takes them.
    static func describe(_ controller: UIViewController, animated: Bool = false) -> ControllerDescription {
      let facts = classFacts(of: controller)
      let window = controller.viewIfLoaded?.window
      return ControllerDescription(
        id: ScreenInstance(ObjectIdentifier(controller)), className: facts.name, superclassNames: facts.superclasses,
        origin: facts.origin, parent: instance(controller.parent),
        presenting: instance(controller.presentingViewController),
        style: style(of: controller), window: instance(window), windowScene: instance(window?.windowScene),
        animated: animated, isMovingToParent: controller.isMovingToParent,
        isMovingFromParent: controller.isMovingFromParent, isBeingPresented: controller.isBeingPresented,
        isBeingDismissed: controller.isBeingDismissed, customName: customName(of: controller),
        optIn: optIn(of: controller))
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
