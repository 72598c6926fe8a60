import Dwell
import DwellTesting
import Foundation
import Testing

/// The platform adapters' decisions (Sources/Dwell/Screens), driven on Linux as UIKit and
/// SwiftUI would drive them: windows, scenes, presentations, touches and the app leaving.
@MainActor
@Suite struct ScreenDecisionTests {
  /// A tracker on a manual clock, in memory.
  final class Device {
    let clock = ManualClock()
    let wall: ManualWallClock
    let tracker: Tracker

    init(idleTimeout: Duration? = nil, wall: String = "2026-05-04T08:00:00Z", zone: String = "UTC") {
      self.wall = ManualWallClock(clock: clock, wall: parseWall(wall), timeZone: TimeZone(identifier: zone)!)
      var configuration = Tracker.Configuration()
      configuration.storeLocation = .inMemory
      configuration.idleTimeout = idleTimeout
      tracker = Tracker(configuration: configuration, clock: clock, wallClock: self.wall, scheduler: clock)
    }

    func wait(_ seconds: Double) { clock.advance(by: .nanoseconds(Int64(seconds * 1e9))) }
    var appTime: Double { seconds(tracker.time(.app)) }
    func screenTime(_ name: String) -> Double { seconds(tracker.time(.screen(name))) }
  }

  /// A coordinator whose events are kept, as `tracker.record` would get them.
  final class Log {
    var events: [LifecycleEvent] = []
    func screens(_ policy: ScreenPolicy = ScreenPolicy()) -> ScreenCoordinator {
      ScreenCoordinator(policy: policy) { [unowned self] in events.append($0) }
    }
    func take() -> [LifecycleEvent] {
      defer { events = [] }
      return events
    }
  }

  /// An app controller in `window` of `scene`, as UIKit reports it in viewDidAppear.
  func vc(
    _ name: String, scene: String? = "s1", window: String? = "w1", parent: String? = nil,
    origin: ControllerDescription.Origin = .app
  ) -> ControllerDescription {
    ControllerDescription(
      id: ScreenInstance(name), className: "MyApp.\(name)", origin: origin, parent: parent.map { ScreenInstance($0) },
      window: window.map { ScreenInstance($0) }, windowScene: scene.map { ScreenInstance($0) })
  }

  func unordered(_ events: [LifecycleEvent]) -> Set<String> { Set(events.map { "\($0)" }) }
  func appear(_ name: String) -> LifecycleEvent { .appear(screen: name, id: ScreenInstance(name)) }
  func disappear(_ name: String) -> LifecycleEvent { .disappear(id: ScreenInstance(name)) }

  @Test func oneAppLifecycleForEveryWindowSoOneGoingToTheBackgroundDoesNotPauseTheApp() {
    let device = Device()
    let first = AppLifecycle.shared(for: device.tracker)  // each window's trackAppLifecycle()
    let second = AppLifecycle.shared(for: device.tracker)
    #expect(first === second)
    #expect(AppLifecycle.shared(for: Device().tracker) !== first)
    first.scenes.scene(ScreenInstance("window-1"), is: .foregroundActive)
    second.scenes.scene(ScreenInstance("window-2"), is: .foregroundActive)
    device.wait(10)
    first.scenes.scene(ScreenInstance("window-1"), is: .background)  // the other window is still in use
    device.wait(50)
    #expect(device.appTime == 60)
    second.scenes.scene(ScreenInstance("window-2"), is: .background)
    device.wait(100)
    #expect(device.appTime == 60)
  }

  @Test func aRepeatedRootOnAppearSendsNothingTwice() {
    let log = Log()
    let scenes = SceneCoordinator { log.events.append($0) }
    scenes.scene(ScreenInstance("window-1"), is: .foregroundActive)
    scenes.scene(ScreenInstance("window-1"), is: .foregroundActive)  // onAppear again: same window, same state
    #expect(log.take() == [.foreground, .active])
  }

  @Test func scenesNotActivePauseTheirScreensAndDisconnectedScenesForgetThem() {
    let log = Log()
    let screens = log.screens()
    for scene in ["left", "right"] {
      screens.handle(.sceneWillConnect(ScreenInstance(scene), role: .windowApplication))
      screens.handle(.sceneWillEnterForeground(ScreenInstance(scene)))
      screens.handle(.sceneDidBecomeActive(ScreenInstance(scene)))
    }
    screens.handle(.viewDidAppear(vc("Notes", scene: "left")))
    screens.handle(.viewDidAppear(vc("Mail", scene: "right")))
    #expect(log.take() == [appear("Notes"), appear("Mail")])
    screens.handle(.sceneWillResignActive(ScreenInstance("left")))  // UIKit sends no viewDidDisappear
    screens.handle(.sceneDidEnterBackground(ScreenInstance("left")))
    #expect(log.take() == [.pause(id: ScreenInstance("Notes"))])
    screens.handle(.sceneWillEnterForeground(ScreenInstance("left")))
    #expect(log.take() == [])  // inactive: still paused
    screens.handle(.sceneDidBecomeActive(ScreenInstance("left")))
    #expect(log.take() == [.resume(id: ScreenInstance("Notes"))])
    screens.handle(.sceneDidDisconnect(ScreenInstance("right")))
    #expect(log.take() == [disappear("Mail")])
    screens.handle(.viewDidDisappear(vc("Mail", scene: nil, window: nil)))
    #expect(log.take() == [])
  }

  @Test func screensShownBeforeStartAreAdoptedAndThePolicySetBeforeStartIsKept() {
    let screens = ScreenCoordinator()  // DwellUIKit's, before DwellUIKit.start()
    screens.policy.excluded = ["DebugViewController"]
    screens.handle(.viewDidAppear(vc("LessonsViewController")))
    screens.handle(.viewDidAppear(vc("DebugViewController")))
    let log = Log()
    #expect(!screens.isStarted)
    screens.start { log.events.append($0) }
    #expect(log.take() == [appear("LessonsViewController")])
    screens.handle(.viewDidAppear(vc("DebugViewController")))
    #expect(log.take() == [])
  }

  @Test func hostingControllersContainersAndAppleClassesAreNeverScreens() {
    var policy = ScreenPolicy()
    func name(_ className: String, _ superclasses: [String] = [], origin: ControllerDescription.Origin = .app)
      -> String?
    {
      policy.screenName(
        for: ControllerDescription(
          id: ScreenInstance(className), className: className, superclassNames: superclasses + ["UIViewController"],
          origin: origin), insideContent: false)
    }
    #expect(name("SwiftUI.UIHostingController<SwiftUI.AnyView>", origin: .system) == nil)
    #expect(name("SwiftUI.UIHostingController<MyApp.LessonsView>", origin: .system) == nil)
    #expect(name("MyApp.RootHost", ["SwiftUI.UIHostingController<MyApp.RootView>"]) == nil)
    #expect(name("MyApp.MainNavigation", ["UINavigationController"]) == nil)
    #expect(name("MyApp.Alert", ["UIAlertController"]) == nil)
    #expect(name("UIActivityViewController", origin: .system) == nil)
    #expect(name("_UIRemoteViewController", origin: .system) == nil)
    #expect(name("MyApp.Lessons", ["MyApp.BaseViewController"]) == "Lessons")
    policy.containers = ["Shell"]
    policy.excluded = ["DebugBase"]
    #expect(name("MyApp.TabShell", ["MyApp.Shell"]) == nil)
    #expect(name("MyApp.Logs", ["MyApp.DebugBase"]) == nil)
    policy.included = ["RootHost", "SFSafariViewController"]
    #expect(name("MyApp.RootHost", ["SwiftUI.UIHostingController<MyApp.RootView>"]) == "RootHost")
    #expect(name("SFSafariViewController", origin: .system) == "SFSafariViewController")
  }

  @Test func contentInsideNestedContainersIsCountedOnce() {
    let log = Log()
    var policy = ScreenPolicy()
    // Dashboard (content) > UIPageViewController (container) > ChartPage (content).
    let screens = log.screens(policy)
    screens.handle(.viewDidAppear(vc("Dashboard")))
    var pages = vc("pages", parent: "Dashboard", origin: .system)
    pages.className = "UIPageViewController"
    screens.handle(.viewDidAppear(pages))
    screens.handle(.viewDidAppear(vc("ChartPage", parent: "pages")))
    #expect(log.take() == [appear("Dashboard")])
    policy.children = .ownScreens
    screens.policy = policy
    screens.handle(.viewDidAppear(vc("MapPage", parent: "pages")))
    #expect(log.take() == [appear("MapPage")])
  }

  @Test func aControllerThatNeverSaysItDisappearedIsClosedWhenItsWindowNoLongerHoldsIt() {
    let device = Device()
    let screens = ScreenCoordinator { device.tracker.record($0) }
    device.tracker.record(.active)
    screens.handle(.viewDidAppear(vc("Lessons", scene: nil)))
    device.wait(10)
    // Detail is pushed; Lessons overrides viewDidDisappear without calling super.
    screens.handle(.viewDidAppear(vc("Detail", scene: nil)))
    screens.reconcile { $0 != ScreenInstance("Lessons") }  // the adapter: Lessons' view has no window
    device.wait(20)
    #expect(device.screenTime("Lessons") == 10)
    #expect(device.screenTime("Detail") == 20)
    #expect(screens.shownControllers == [ScreenInstance("Detail")])
  }

  /// Keeps what the background assertion was asked.
  final class Assertion: BackgroundAssertion {
    var log: [String] = []
    var expireAtOnce = false
    func begin(expired: @escaping @MainActor @Sendable () -> Void) -> Int? {
      log.append("begin")
      if expireAtOnce { Task { @MainActor in expired() } }  // the system ends it before the commit does
      return 7
    }
    func end(_ identifier: Int) { log.append("end \(identifier)") }
  }

  @Test func theBackgroundCommitRunsInsideAnAssertionWhenTheLastWindowLeaves() async throws {
    let device = Device()
    let lifecycle = AppLifecycle.shared(for: device.tracker)
    let assertion = Assertion()
    lifecycle.commitInBackground(holding: assertion)
    lifecycle.scenes.scene(ScreenInstance("w1"), is: .foregroundActive)
    lifecycle.scenes.scene(ScreenInstance("w2"), is: .foregroundActive)
    lifecycle.scenes.scene(ScreenInstance("w1"), is: .background)
    #expect(assertion.log == [])
    lifecycle.scenes.scene(ScreenInstance("w2"), is: .background)
    #expect(assertion.log == ["begin"])
    for _ in 0..<1000 where assertion.log.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
    #expect(assertion.log == ["begin", "end 7"])
    // The system may end it first: then it is ended once, not again after the commit.
    assertion.log = []
    assertion.expireAtOnce = true
    lifecycle.scenes.scene(ScreenInstance("w1"), is: .foregroundActive)
    lifecycle.scenes.scene(ScreenInstance("w1"), is: .background)
    try await Task.sleep(for: .milliseconds(200))
    #expect(assertion.log == ["begin", "end 7"])
  }

  @Test func clockAndTimeZoneChangesAndTerminationAreHandled() {
    let device = Device(wall: "2026-05-04T21:30:00Z", zone: "UTC")
    let center = NotificationCenter()
    let lifecycle = AppLifecycle.shared(for: device.tracker)
    let clock = Notification.Name("significantTimeChange")
    let terminate = Notification.Name("willTerminate")
    lifecycle.observeSystemEvents(
      clockChanges: [clock], termination: [terminate], center: center, wallClock: device.wall)
    lifecycle.observeSystemEvents(
      clockChanges: [clock], termination: [terminate], center: center, wallClock: device.wall)
    lifecycle.scenes.scene(ScreenInstance("w1"), is: .foregroundActive)
    device.wait(60)
    device.wall.set(timeZone: TimeZone(identifier: "Asia/Tokyo")!)  // 06:31 on May 5 there
    center.post(name: clock, object: nil)
    device.wait(30)
    let days = device.tracker.report()?.app.days ?? [:]
    #expect(days.mapValues { seconds($0) } == [day("2026-05-04"): 60, day("2026-05-05"): 30])
    center.post(name: terminate, object: nil)
    device.wait(100)
    #expect(device.appTime == 90)
  }

  @Test func aScreensOnlyStartPausesScreensWithTheirSceneButLeavesTheAppLifecycleToSwiftUI() {
    let device = Device()
    let lifecycle = AppLifecycle.shared(for: device.tracker)
    lifecycle.scenes.scene(ScreenInstance("swiftui-window"), is: .foregroundActive)  // trackAppLifecycle()
    let log = Log()
    let screens = log.screens()  // DwellUIKit.start(tracksAppLifecycle: false): no lifecycle
    #expect(screens.lifecycle == nil)
    screens.handle(.sceneWillConnect(ScreenInstance("s1"), role: .windowApplication))
    screens.handle(.viewDidAppear(vc("Lessons")))
    screens.handle(.sceneWillEnterForeground(ScreenInstance("s1")))
    screens.handle(.sceneDidBecomeActive(ScreenInstance("s1")))
    device.wait(10)
    screens.handle(.sceneWillResignActive(ScreenInstance("s1")))
    #expect(
      log.take() == [
        appear("Lessons"), .pause(id: ScreenInstance("Lessons")), .resume(id: ScreenInstance("Lessons")),
        .pause(id: ScreenInstance("Lessons")),
      ])
    #expect(device.appTime == 10)
    // A full start feeds the lifecycle too, from application scenes only.
    let app = Log()
    screens.lifecycle = SceneCoordinator { app.events.append($0) }
    screens.handle(.sceneDidBecomeActive(ScreenInstance("s1")))
    #expect(app.take() == [.foreground, .active])
    screens.handle(.sceneWillConnect(ScreenInstance("car"), role: .carTemplateApplication))
    screens.handle(.sceneWillEnterForeground(ScreenInstance("car")))
    screens.handle(.sceneWillResignActive(ScreenInstance("s1")))
    screens.handle(.sceneDidBecomeActive(ScreenInstance("car")))
    #expect(app.take() == [.inactive])
  }
}
