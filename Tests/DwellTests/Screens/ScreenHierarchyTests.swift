import Dwell
import DwellTesting
import Testing

/// The UIKit integration's decisions, driven by scripted hierarchies on Linux.
@Suite struct ScreenHierarchyTests {
  func vc(
    _ name: String, _ superclasses: [String] = [], origin: ControllerDescription.Origin = .app, custom: String? = nil,
    optIn: Bool? = nil
  ) -> ControllerDescription {
    ControllerDescription(
      id: ScreenInstance(name), className: origin == .app ? "MyApp.\(name)" : name,
      superclassNames: superclasses + ["UIViewController"], origin: origin, customName: custom, optIn: optIn)
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
    func name(_ controller: ControllerDescription, inside: Bool = false) -> String? {
      policy.screenName(for: controller, insideContent: inside)
    }
    #expect(name(vc("UINavigationController", origin: .system)) == nil)
    #expect(name(vc("UIAlertController", origin: .system)) == nil)
    #expect(name(vc("_UIRemoteViewController", origin: .system)) == nil)
    #expect(name(vc("Lessons")) == "Lessons")
    #expect(name(vc("Header"), inside: true) == nil)
    #expect(name(vc("Header", optIn: true), inside: true) == "Header")
    #expect(name(vc("Lessons", custom: "Lessons screen")) == "Lessons screen")
    #expect(name(vc("Debug", optIn: false)) == nil)
    policy.children = .ownScreens
    #expect(name(vc("Header"), inside: true) == "Header")
    policy.containers = ["Shell"]
    #expect(name(vc("Shell")) == nil)
    policy.excluded = ["Lessons"]
    #expect(name(vc("Lessons")) == nil)
  }

  @Test func pushAndPopInANavigationController() throws {
    let app = try UIKitScript()
    app.connect()
    let nav = app.system("nav", "UINavigationController")
    let list = app.vc("ListViewController", parent: "nav")
    let detail = app.vc("DetailViewController", parent: "nav")
    app.appear(nav, list)  // containers appear too; never counted
    app.wait(10)
    app.handle(.viewWillDisappear(app.facts(list, inWindow: true)))  // push
    app.handle(.viewWillAppear(app.facts(detail, inWindow: false, toParent: true)))
    app.handle(.viewDidDisappear(app.facts(list, inWindow: false)))
    app.handle(.viewDidAppear(app.facts(detail, inWindow: true, toParent: true)))
    app.wait(20)
    app.handle(.viewWillDisappear(app.facts(detail, inWindow: true, fromParent: true)))  // pop
    app.handle(.viewWillAppear(app.facts(list, inWindow: false)))
    app.handle(.viewDidDisappear(app.facts(detail, inWindow: false, parent: .some(nil), fromParent: true)))
    app.handle(.viewDidAppear(app.facts(list, inWindow: true)))
    app.handle(.viewDidAppear(app.facts(list, inWindow: true)))  // a duplicate callback changes nothing
    app.wait(5)
    #expect(app.figures("ListViewController") == (15, 2))
    #expect(app.figures("DetailViewController") == (20, 1))
    #expect(app.engine.report().screens["UINavigationController"] == nil)
    #expect(app.appTime == 35)
  }

  @Test func aCancelledInteractivePopIsNotAVisit() throws {
    let app = try UIKitScript()
    app.connect()
    let nav = app.system("nav", "UINavigationController")
    let list = app.vc("List", parent: "nav")
    let detail = app.vc("Detail", parent: "nav")
    app.appear(nav, detail)
    app.wait(10)
    app.handle(.viewWillDisappear(app.facts(detail, inWindow: true, fromParent: true)))  // the swipe begins
    app.handle(.viewWillAppear(app.facts(list, inWindow: false)))
    app.wait(1)
    app.handle(.viewWillDisappear(app.facts(list, inWindow: true)))  // released: cancelled
    app.handle(.viewDidDisappear(app.facts(list, inWindow: false)))
    app.handle(.viewWillAppear(app.facts(detail, inWindow: true)))
    app.handle(.viewDidAppear(app.facts(detail, inWindow: true)))
    app.wait(4)
    #expect(app.figures("Detail") == (15, 1))
    #expect(app.figures("List") == (0, 0))
  }

  @Test func pageSheetsKeepThePresenterOverFullScreenPausesIt() throws {
    let app = try UIKitScript()
    app.connect()
    let nav = app.system("nav", "UINavigationController")
    app.appear(nav, app.vc("LessonsViewController", parent: "nav"))
    app.wait(10)
    app.present(app.vc("PaywallViewController"), style: .pageSheet, from: "nav")  // the presenter stays
    app.wait(6)
    app.dismiss("PaywallViewController")
    app.wait(4)
    app.present(app.vc("PlayerViewController"), style: .overFullScreen, from: "nav")  // UIKit tells no one below
    app.wait(50)
    app.dismiss("PlayerViewController")
    app.wait(1)
    #expect(app.figures("LessonsViewController") == (21, 1))
    #expect(app.figures("PaywallViewController") == (6, 1))
    #expect(app.figures("PlayerViewController") == (50, 1))
    #expect(app.appTime == 71)
  }

  @Test func childControllersArePartOfTheirParentByDefault() throws {
    let app = try UIKitScript()
    app.connect()
    app.appear(app.vc("DashboardViewController"), app.vc("ChartViewController", parent: "DashboardViewController"))
    app.wait(12)
    #expect(app.figures("DashboardViewController") == (12, 1))
    #expect(app.engine.report().screens["ChartViewController"] == nil)
    app.screens.policy.children = .ownScreens
    app.appear(app.vc("MapViewController", parent: "DashboardViewController"))
    app.wait(3)
    #expect(app.figures("MapViewController") == (3, 1))
  }

  @Test func twoScenesCountAppTimeOnceAndTheScreenOfOneNotActiveIsPaused() throws {
    let app = try UIKitScript()
    app.connect()
    app.appear(app.vc("NotesViewController"))
    app.connect("s2")
    app.wait(10)
    app.resign()  // one window resigns; the other is active
    app.wait(10)
    app.background("s2")
    app.handle(.sceneDidEnterBackground(ScreenInstance("s1")))
    app.wait(100)
    app.activate()
    app.wait(5)
    #expect(app.appTime == 25)
    #expect(app.figures("NotesViewController") == (15, 1))
    #expect(app.sessions == 1)
  }
}
