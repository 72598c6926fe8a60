#if canImport(UIKit) && !os(watchOS)
  internal import Dwell
  internal import Foundation
  internal import ObjectiveC
  internal import UIKit

  extension DwellUIKit {
    /// Tracks every view controller's appearance by hooking UIViewController's
    /// `viewDidAppear(_:)` and `viewDidDisappear(_:)`, once per process. For teams that forbid
    /// method swizzling, call ``screenDidAppear(_:)``/``screenDidDisappear(_:)`` instead, or
    /// subclass ``TrackedViewController``.
    ///
    /// Each hook calls the implementation it replaced, so SDKs that swizzle the same methods,
    /// before or after, keep working; if one later puts back what it saved before Dwell's (an
    /// unswizzle on close), Dwell hooks again when a window or scene next becomes visible or
    /// active, or on the next call of this method. A second copy of Dwell in the process (an
    /// app and a framework both linking it) finds the hooks in place and adds none: the
    /// screens are then tracked by the copy that installed them. Appearance that reaches UIKit
    /// off the main thread is handled on the main queue, never trapped, and reported once as
    /// ``TrackerProblem/offMainThread(_:)``.
    public static func trackScreensAutomatically() {
      AppearanceHooks.install()
    }
  }

  /// The appearance hooks on UIViewController, through the Objective-C runtime; the decisions
  /// (install once, repair, one count per call, off-main policy) are ``MethodHooks``'s.
  @MainActor
  enum AppearanceHooks {
    nonisolated static let appear = #selector(UIViewController.viewDidAppear(_:))
    nonisolated static let disappear = #selector(UIViewController.viewDidDisappear(_:))
    /// Added to UIViewController by the first copy of Dwell that hooks it in this process (no
    /// Swift declaration has this selector: it is only a mark in the class).
    static let marker = Selector(("dwell_appearanceHooksInstalled"))
    static let hooks = MethodHooks(
      table: RuntimeMethods(UIViewController.self), methods: [appear, disappear], marker: marker)
    nonisolated static let calls = HookCalls()
    private static var observers: [any NSObjectProtocol] = []

    static func install() {
      guard hooks.install(hook: hook) else { return }
      let center = NotificationCenter.default
      for name in [
        UIWindow.didBecomeVisibleNotification, UIScene.didActivateNotification,
        UIApplication.didBecomeActiveNotification,
      ] {
        observers.append(
          center.addObserver(forName: name, object: nil, queue: .main) { _ in
            MainActor.assumeIsolated { hooks.repair(hook: hook) }
          })
      }
    }

    /// The implementation that replaces `previous` for `method`: it calls `previous` with the
    /// method's own selector, then (the outer hook of the call only) tells ``DwellUIKit``.
    /// Nonisolated: UIKit may call it on any thread, and it must not trap there.
    nonisolated static func hook(_ method: Selector, _ previous: IMP) -> IMP {
      typealias Implementation = @convention(c) (UIViewController, Selector, Bool) -> Void
      let original = unsafeBitCast(previous, to: Implementation.self)
      let appears = method == appear
      let block: @convention(block) (UIViewController, Bool) -> Void = { controller, animated in
        calls.call(receiver: controller, method: appears ? 0 : 1) {
          original(controller, method, animated)
        } body: {
          deliver(controller, appears: appears)
        }
      }
      return imp_implementationWithBlock(block)
    }

    nonisolated static func deliver(_ controller: UIViewController, appears: Bool) {
      switch HookThread.decide(isMainThread: Thread.isMainThread) {
      case .now:
        MainActor.assumeIsolated { tell(controller, appears: appears) }
      case .mainQueue:
        DispatchQueue.main.async {
          MainActor.assumeIsolated {
            let what = appears ? "viewDidAppear(_:)" : "viewDidDisappear(_:)"
            hooks.calledOffMain("\(what) of \(String(reflecting: type(of: controller)))", tracker: DwellUIKit.tracker)
            tell(controller, appears: appears)
          }
        }
      }
    }

    private static func tell(_ controller: UIViewController, appears: Bool) {
      if appears { DwellUIKit.screenDidAppear(controller) } else { DwellUIKit.screenDidDisappear(controller) }
    }
  }

  /// UIViewController's methods in the Objective-C runtime.
  @MainActor
  final class RuntimeMethods: MethodTable {
    let owner: AnyClass

    init(_ owner: AnyClass) { self.owner = owner }

    func implementation(of method: Selector) -> IMP? {
      class_getInstanceMethod(owner, method).map(method_getImplementation)
    }

    func setImplementation(_ implementation: IMP, of method: Selector) -> Bool {
      guard let found = class_getInstanceMethod(owner, method) else { return false }
      _ = method_setImplementation(found, implementation)
      return true
    }

    func addMarker(_ marker: Selector) -> Bool {
      let block: @convention(block) (AnyObject) -> Void = { _ in }
      let implementation = imp_implementationWithBlock(block)
      return "v@:".withCString { class_addMethod(owner, marker, implementation, $0) }
    }
  }
#endif
