import Dwell
import DwellTesting
import Testing

/// The UIKit integration's decisions, driven by scripted hierarchies on Linux.
@Suite struct ScreenHierarchyTests {
  func vc(
    _ name: String, _ kind: ControllerDescription.Kind = .content, parent: ControllerDescription.Kind? = nil,
    custom: String? = nil, optIn: Bool? = nil
  ) -> ControllerDescription {
    ControllerDescription(
      id: ScreenInstance(name), className: "MyApp.\(name)", kind: kind, parentKind: parent, customName: custom,
      optIn: optIn)
  }

  @Test func namesAreCleanedOfModulesAndGenericWrappers() {
    #expect(ScreenNamer.name(forClass: "MyApp.LessonsViewController") == "LessonsViewController")
    #expect(ScreenNamer.name(forClass: "SwiftUI.UIHostingController<MyApp.LessonsView>") == "LessonsView")
    #expect(
      ScreenNamer.name(
        forClass: "UIHostingController<ModifiedContent<LessonsView, _EnvironmentKeyWritingModifier<Optional<Store>>>>")
        == "LessonsView")
    #expect(ScreenNamer.name(forClass: "MyApp.ListController<MyApp.Item>") == "ListController")
    #expect(ScreenNamer.name(forClass: "") == "Unnamed")
  }

  @Test func containersSystemControllersAndChildrenFollowThePolicy() {
    var policy = ScreenPolicy()
    #expect(policy.screenName(for: vc("UINavigationController", .container)) == nil)
    #expect(
      policy.screenName(for: ControllerDescription(id: ScreenInstance("a"), className: "UIAlertController")) == nil)
    #expect(
      policy.screenName(for: ControllerDescription(id: ScreenInstance("k"), className: "_UIRemoteViewController"))
        == nil)
    #expect(policy.screenName(for: vc("Lessons", parent: .container)) == "Lessons")
    #expect(policy.screenName(for: vc("Header", parent: .content)) == nil)
    #expect(policy.screenName(for: vc("Header", parent: .content, optIn: true)) == "Header")
    #expect(policy.screenName(for: vc("Lessons", custom: "Lessons screen")) == "Lessons screen")
    #expect(policy.screenName(for: vc("Debug", optIn: false)) == nil)
    policy.children = .ownScreens
    #expect(policy.screenName(for: vc("Header", parent: .content)) == "Header")
    policy.containers = ["Shell"]
    #expect(policy.screenName(for: vc("Shell")) == nil)
    policy.excluded = ["Lessons"]
    #expect(policy.screenName(for: vc("Lessons", parent: .container)) == nil)
  }

  /// Drives an engine through the coordinators, as the UIKit adapter would.
  final class App {
    let rig = Rig()
    let engine: Engine
    let screens: ScreenCoordinator
    let scenes: SceneCoordinator

    init() throws {
      let engine = try rig.launch()
      self.engine = engine
      screens = ScreenCoordinator { engine.record($0) }
      scenes = SceneCoordinator { engine.record($0) }
      scenes.scene(ScreenInstance("scene-1"), is: .foregroundActive)
    }

    func wait(_ seconds: Double) { rig.advance(seconds) }
    func figures(_ name: String) -> (Double, Int) {
      let screen = engine.report().screens[name]
      return (seconds(screen?.time ?? .zero), screen?.visits ?? 0)
    }
  }

  func vcIn(_ name: String, _ parent: ControllerDescription.Kind = .container) -> ControllerDescription {
    vc(name, parent: parent)
  }

  @Test func pushAndPopInANavigationController() throws {
    let app = try App()
    let nav = vc("UINavigationController", .container)
    let list = vcIn("ListViewController")
    let detail = vcIn("DetailViewController")
    app.screens.didAppear(nav)  // containers appear too; never counted
    app.screens.didAppear(list)
    app.wait(10)
    app.screens.didDisappear(list)  // push
    app.screens.didAppear(detail)
    app.wait(20)
    app.screens.didAppear(list)  // pop: UIKit calls viewDidAppear on the list again
    app.screens.didAppear(list)  // a duplicate callback changes nothing
    app.screens.didDisappear(detail)
    app.wait(5)
    #expect(app.figures("ListViewController") == (15, 2))
    #expect(app.figures("DetailViewController") == (20, 1))
    #expect(app.engine.report().screens["UINavigationController"] == nil)
    #expect(seconds(app.engine.report().app.time) == 35)
  }

  @Test func tabSwitchesCountEachTabOnce() throws {
    let app = try App()
    let home = vcIn("HomeViewController")
    let profile = vcIn("ProfileViewController")
    app.screens.didAppear(vc("UITabBarController", .container))
    app.screens.didAppear(home)
    app.wait(30)
    app.screens.didDisappear(home)
    app.screens.didAppear(profile)
    app.wait(10)
    #expect(app.figures("HomeViewController") == (30, 1))
    #expect(app.figures("ProfileViewController") == (10, 1))
  }

  @Test func pageSheetsKeepThePresenterFullScreenHidesIt() throws {
    let app = try App()
    let lessons = vcIn("LessonsViewController")
    let paywall = vc("PaywallViewController")
    let player = vc("PlayerViewController")
    app.screens.didAppear(lessons)
    app.wait(10)
    app.screens.didAppear(paywall)  // page sheet: UIKit leaves the presenter visible
    app.screens.didPresent(paywall, style: .sheet)
    app.wait(6)
    app.screens.didDismiss(paywall)
    app.wait(4)
    app.screens.didAppear(player)  // .overFullScreen: UIKit does not tell the presenter
    app.screens.didPresent(player, style: .fullScreen)
    app.wait(50)
    app.screens.didDismiss(player)
    app.wait(1)
    #expect(app.figures("LessonsViewController") == (21, 2))
    #expect(app.figures("PaywallViewController") == (6, 1))
    #expect(app.figures("PlayerViewController") == (50, 1))
    #expect(seconds(app.engine.report().app.time) == 71)
  }

  @Test func childControllersArePartOfTheirParentByDefault() throws {
    let app = try App()
    app.screens.didAppear(vcIn("DashboardViewController"))
    app.screens.didAppear(vcIn("ChartViewController", .content))
    app.wait(12)
    #expect(app.figures("DashboardViewController") == (12, 1))
    #expect(app.engine.report().screens["ChartViewController"] == nil)
    app.screens.policy.children = .ownScreens
    app.screens.didAppear(vcIn("MapViewController", .content))
    app.wait(3)
    #expect(app.figures("MapViewController") == (3, 1))
  }

  @Test func twoScenesCountAppTimeOnceAndBackgroundPausesScreens() throws {
    let app = try App()
    let main = ScreenInstance("scene-1")
    let second = ScreenInstance("scene-2")
    app.screens.didAppear(vcIn("NotesViewController"))
    app.scenes.scene(second, is: .foregroundActive)
    app.wait(10)
    app.scenes.scene(main, is: .foregroundInactive)  // one window resigns; the other is active
    app.wait(10)
    app.scenes.scene(second, is: .background)
    app.scenes.scene(main, is: .background)
    app.wait(100)
    app.scenes.scene(main, is: .foregroundActive)
    app.wait(5)
    let report = app.engine.report()
    #expect(seconds(report.app.time) == 25)
    #expect(app.figures("NotesViewController") == (25, 1))
    #expect(report.sessions == 1)
  }
}
