import DwellTesting
import Testing

@testable import Dwell

/// `MethodHooks`, the decisions of UIKit's appearance hooks, against a model of the
/// Objective-C runtime: methods by name, each with an implementation, called by name (a
/// message send), exchanged or set as SDKs do.
@MainActor @Suite struct MethodHooksTests {
  /// An implementation: identity is the IMP's address.
  final class Implementation: Equatable {
    let run: @MainActor (Runtime) -> Void
    init(_ run: @escaping @MainActor (Runtime) -> Void) { self.run = run }
    static func == (a: Implementation, b: Implementation) -> Bool { a === b }
  }

  /// One class's method list, and what each call did.
  final class Runtime: MethodTable {
    var methods: [String: Implementation] = [:]
    var log: [String] = []

    init() { methods["viewDidAppear"] = Implementation { $0.log.append("UIKit") } }

    func implementation(of method: String) -> Implementation? { methods[method] }
    func setImplementation(_ implementation: Implementation, of method: String) -> Bool {
      guard methods[method] != nil else { return false }
      methods[method] = implementation
      return true
    }
    func addMarker(_ marker: String) -> Bool {
      guard methods[marker] == nil else { return false }
      methods[marker] = Implementation { _ in }
      return true
    }

    /// `[controller viewDidAppear:]`: what ran, in order.
    func send(_ method: String = "viewDidAppear") -> [String] {
      log = []
      methods[method]?.run(self)
      return log
    }

    /// An SDK that swizzles by exchanging with its own selector, and unswizzles by
    /// exchanging again (PostHog's `close()`).
    func exchange(_ a: String, _ b: String) {
      let first = methods[a]
      methods[a] = methods[b]
      methods[b] = first
    }
    func addExchangingSDK() {
      methods["other_viewDidAppear"] = Implementation { runtime in
        runtime.methods["other_viewDidAppear"]?.run(runtime)  // the original, after the exchange
        runtime.log.append("other SDK")
      }
      exchange("viewDidAppear", "other_viewDidAppear")
    }
  }

  static let calls = HookCalls()

  /// Dwell's hook: the implementation it replaced, then Dwell (the outer hook only).
  static func hook(_ method: String, _ previous: Implementation) -> Implementation {
    Implementation { runtime in
      calls.call(receiver: runtime, method: 0) {
        previous.run(runtime)
      } body: {
        runtime.log.append("Dwell")
      }
    }
  }

  static func hooks(_ runtime: Runtime) -> MethodHooks<Runtime> {
    MethodHooks(table: runtime, methods: ["viewDidAppear"], marker: "dwell_marker")
  }

  @Test func anotherSDKSwizzlingAfterDwellKeepsBothAndItsUnswizzleKeepsDwell() {
    let runtime = Runtime()
    let hooks = Self.hooks(runtime)
    #expect(hooks.install(hook: Self.hook))
    #expect(runtime.send() == ["UIKit", "Dwell"])
    runtime.addExchangingSDK()
    #expect(runtime.send() == ["UIKit", "Dwell", "other SDK"])
    hooks.repair(hook: Self.hook)  // a window became visible: Dwell's hook is below the other's
    #expect(runtime.send() == ["UIKit", "other SDK", "Dwell"])  // the new outer one counts, the lower one forwards
    runtime.exchange("viewDidAppear", "other_viewDidAppear")  // the other SDK's close()
    hooks.repair(hook: Self.hook)
    #expect(runtime.send() == ["UIKit", "Dwell"])
  }

  /// The case that lost Dwell's hook: the other SDK swizzled first and unswizzles later.
  @Test func anotherSDKUnswizzlingAfterDwellIsRepaired() {
    let runtime = Runtime()
    let hooks = Self.hooks(runtime)
    runtime.addExchangingSDK()
    hooks.install(hook: Self.hook)
    #expect(runtime.send() == ["UIKit", "other SDK", "Dwell"])
    runtime.exchange("viewDidAppear", "other_viewDidAppear")  // restores UIKit's: Dwell's hook is out
    #expect(runtime.send() == ["UIKit"])
    hooks.repair(hook: Self.hook)
    #expect(runtime.send() == ["UIKit", "Dwell"])
    // An SDK that saved the implementation and sets it back is the same case.
    let saved = runtime.methods["viewDidAppear"]
    let other = Implementation { runtime in
      saved?.run(runtime)
      runtime.log.append("other SDK")
    }
    #expect(runtime.setImplementation(other, of: "viewDidAppear"))
    hooks.repair(hook: Self.hook)
    #expect(runtime.send() == ["UIKit", "other SDK", "Dwell"])  // Dwell's lower hook only forwards
    if let saved { _ = runtime.setImplementation(saved, of: "viewDidAppear") }  // its close()
    hooks.repair(hook: Self.hook)  // Dwell's own hook is back on top: nothing to add
    #expect(runtime.send() == ["UIKit", "Dwell"])
    #expect(hooks.installed["viewDidAppear"]?.count == 3)
  }

  /// Repairs hook again only after a change, so the chain does not grow at each repair.
  @Test func repairingWithoutAChangeAddsNothing() {
    let runtime = Runtime()
    let hooks = Self.hooks(runtime)
    hooks.install(hook: Self.hook)
    for _ in 0..<5 { hooks.repair(hook: Self.hook) }
    #expect(hooks.installed["viewDidAppear"]?.count == 1)
    runtime.addExchangingSDK()
    for _ in 0..<5 { hooks.repair(hook: Self.hook) }
    #expect(hooks.installed["viewDidAppear"]?.count == 2)
    #expect(runtime.send() == ["UIKit", "other SDK", "Dwell"])
  }

  /// A second copy of the module (its own statics, the same class) finds the marker in the
  /// class and installs nothing: one count per appearance, not two (or none, as two
  /// exchanges of the same selectors did).
  @Test func aSecondCopyOfTheModuleInstallsNothing() {
    let runtime = Runtime()
    let first = Self.hooks(runtime)
    let second = Self.hooks(runtime)
    #expect(first.install(hook: Self.hook))
    #expect(!second.install(hook: Self.hook))
    #expect(!second.isInstalled)
    #expect(!first.install(hook: Self.hook))  // again from the same copy: a repair, no new hook
    #expect(runtime.send() == ["UIKit", "Dwell"])
  }

  @Test func offTheMainThreadDwellsPartRunsOnTheMainQueueAndIsReportedOnce() {
    #expect(HookThread.decide(isMainThread: true) == .now)
    #expect(HookThread.decide(isMainThread: false) == .mainQueue)
    let tracker = TrackerSimulation(configuration: Tracker.Configuration()).tracker
    let seen = Locked<[TrackerProblem]>([])
    tracker.onProblem { problem in seen.withLock { $0.append(problem) } }
    let hooks = Self.hooks(Runtime())
    hooks.calledOffMain("viewDidAppear(_:) of A", tracker: tracker)
    hooks.calledOffMain("viewDidAppear(_:) of B", tracker: tracker)
    #expect(seen.withLock { $0 } == [.offMainThread("viewDidAppear(_:) of A")])
  }
}
