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

  func vc(
    _ name: String, scene: String? = nil, window: String? = nil, root: String? = nil,
    _ kind: ControllerDescription.Kind = .content
  ) -> ControllerDescription {
    ControllerDescription(
      id: ScreenInstance(name), className: "MyApp.\(name)", kind: kind, parentKind: .container,
      scene: scene.map { ScreenInstance($0) }, window: window.map { ScreenInstance($0) },
      root: root.map { ScreenInstance($0) })
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

  @Test func scenesInTheBackgroundStopTheirScreensAndDisconnectedScenesForgetThem() {
    let log = Log()
    let screens = log.screens()
    screens.didAppear(vc("Notes", scene: "left"))
    screens.didAppear(vc("Mail", scene: "right"))
    #expect(log.take() == [appear("Notes"), appear("Mail")])
    screens.scene(ScreenInstance("left"), is: .background)  // UIKit sends no viewDidDisappear
    #expect(log.take() == [disappear("Notes")])
    screens.scene(ScreenInstance("left"), is: .foregroundInactive)
    #expect(log.take() == [appear("Notes")])
    screens.scene(ScreenInstance("right"), is: .unattached)
    #expect(log.take() == [disappear("Mail")])
    screens.scene(ScreenInstance("right"), is: .foregroundActive)
    screens.didDisappear(vc("Mail", scene: "right"))
    #expect(log.take() == [])
  }

  @Test func screensShownBeforeStartAreAdoptedAndThePolicySetBeforeStartIsKept() {
    let screens = ScreenCoordinator()  // DwellUIKit's, before DwellUIKit.start()
    screens.policy.excluded = ["DebugViewController"]
    screens.didAppear(vc("LessonsViewController"))
    screens.didAppear(vc("DebugViewController"))
    let log = Log()
    #expect(!screens.isStarted)
    screens.start { log.events.append($0) }
    #expect(log.take() == [appear("LessonsViewController")])
    screens.didAppear(vc("DebugViewController"))
    #expect(log.take() == [])
  }

  @Test func hostingControllersAndSubclassesOfSystemClassesAreNeverScreens() {
    var policy = ScreenPolicy()
    func name(_ className: String, _ superclasses: [String] = [], kind: ControllerDescription.Kind = .content)
      -> String?
    {
      policy.screenName(
        for: ControllerDescription(
          id: ScreenInstance(className), className: className, superclassNames: superclasses, kind: kind))
    }
    #expect(name("SwiftUI.UIHostingController<SwiftUI.AnyView>") == nil)
    #expect(name("SwiftUI.UIHostingController<MyApp.LessonsView>") == nil)
    #expect(name("MyApp.RootHost", ["SwiftUI.UIHostingController<MyApp.RootView>", "UIKit.UIViewController"]) == nil)
    #expect(name("MyApp.MainNavigation", ["UIKit.UINavigationController"]) == nil)
    #expect(name("MyApp.ShareSheet", ["UIKit.UIActivityViewController"]) == nil)
    #expect(name("MyApp.Lessons", ["MyApp.BaseViewController", "UIKit.UIViewController"]) == "Lessons")
    policy.containers = ["Shell"]
    policy.excluded = ["DebugBase"]
    #expect(name("MyApp.TabShell", ["MyApp.Shell"]) == nil)
    #expect(name("MyApp.Logs", ["MyApp.DebugBase"]) == nil)
    policy.included = ["RootHost"]
    #expect(name("MyApp.RootHost", ["SwiftUI.UIHostingController<MyApp.RootView>"]) == "RootHost")
  }

  @Test func contentInsideNestedContainersIsCountedOnce() {
    var policy = ScreenPolicy()
    // Dashboard (content) > UIPageViewController (container) > ChartPage (content).
    let page = ControllerDescription(
      id: ScreenInstance("p"), className: "MyApp.ChartPage", parentKind: .container, isInsideContent: true)
    #expect(policy.screenName(for: page) == nil)
    // Tab bar > navigation > Lessons: containers only above it.
    let lessons = ControllerDescription(
      id: ScreenInstance("l"), className: "MyApp.Lessons", parentKind: .container, isInsideContent: false)
    #expect(policy.screenName(for: lessons) == "Lessons")
    policy.children = .ownScreens
    #expect(policy.screenName(for: page) == "ChartPage")
  }

  @Test func aFullScreenPresentationCoversItsOwnWindowOnlyNeverItsOwnContent() {
    let log = Log()
    let screens = log.screens()
    screens.didAppear(vc("Lessons", window: "w1", root: "tabs"))
    screens.didAppear(vc("Notes", window: "w2", root: "split"))
    _ = log.take()
    // A navigation controller presented full screen in w1: its content appears first.
    screens.didAppear(vc("Player", window: "w1", root: "nav"))
    screens.didAppear(vc("nav", window: "w1", .container))
    screens.didPresent(vc("nav", window: "w1", .container), style: .fullScreen)
    #expect(log.take() == [appear("Player"), disappear("Lessons")])
    screens.didAppear(vc("Inbox", window: "w2", root: "split"))  // the other window is not covered
    #expect(log.take() == [appear("Inbox")])
    screens.didDisappear(vc("Inbox", window: "w2", root: "split"))
    _ = log.take()
    // From the player, a page sheet (both accrue), then a full-screen cover over both.
    screens.didAppear(vc("Comments", window: "w1"))
    screens.didPresent(vc("Comments", window: "w1"), style: .sheet)
    screens.didAppear(vc("Zoom", window: "w1"))
    screens.didPresent(vc("Zoom", window: "w1"), style: .fullScreen)
    #expect(
      unordered(log.take())
        == unordered([appear("Comments"), appear("Zoom"), disappear("Player"), disappear("Comments")]))
    screens.didDismiss(vc("Zoom", window: "w1"))
    #expect(unordered(log.take()) == unordered([disappear("Zoom"), appear("Player"), appear("Comments")]))
    screens.didDismiss(vc("nav", window: "w1", .container))  // dismissing the navigation takes the sheet too
    screens.didDisappear(vc("Player", window: "w1", root: "nav"))
    screens.didDisappear(vc("Comments", window: "w1"))
    #expect(unordered(log.take()) == unordered([appear("Lessons"), disappear("Player"), disappear("Comments")]))
    #expect(screens.visibleScreens == ["Lessons", "Notes"])
  }

  @Test func aControllerThatNeverSaysItDisappearedIsClosedWhenItsWindowNoLongerHoldsIt() {
    let device = Device()
    let screens = ScreenCoordinator { device.tracker.record($0) }
    device.tracker.record(.active)
    screens.didAppear(vc("Lessons"))
    device.wait(10)
    // Detail is pushed; Lessons overrides viewDidDisappear without calling super.
    screens.didAppear(vc("Detail"))
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

  @Test func aScreensOnlyStartStopsScreensWithTheirSceneButLeavesTheAppLifecycleToSwiftUI() {
    let device = Device()
    let lifecycle = AppLifecycle.shared(for: device.tracker)
    lifecycle.scenes.scene(ScreenInstance("swiftui-window"), is: .foregroundActive)  // trackAppLifecycle()
    let log = Log()
    let screens = log.screens()  // DwellUIKit.start(tracking: .screens): no lifecycle
    #expect(screens.lifecycle == nil)
    screens.didAppear(vc("Lessons", scene: "scene-1"))
    screens.scene(ScreenInstance("scene-1"), is: .foregroundActive)
    device.wait(10)
    screens.scene(ScreenInstance("scene-1"), is: .background)
    #expect(log.take() == [appear("Lessons"), disappear("Lessons")])
    #expect(device.appTime == 10)
    // A full start feeds the lifecycle too.
    let app = Log()
    screens.lifecycle = SceneCoordinator { app.events.append($0) }
    screens.scene(ScreenInstance("scene-1"), is: .foregroundActive)
    #expect(app.take() == [.foreground, .active])
  }
}
