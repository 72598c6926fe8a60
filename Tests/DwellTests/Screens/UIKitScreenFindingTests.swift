import Dwell
import Testing

/// What the review of the UIKit adapter found wrong (Dwell issue 23), each driven through
/// ScreenCoordinator.handle(_:) with the facts UIKit gives (UIKitScript).
@Suite struct UIKitScreenFindingTests {
  /// Tab bar > navigation > `top`, shown in w1 of s1, the scene active.
  func tabs(_ app: UIKitScript, top: String = "Lessons") -> (UIKitScript.VC, UIKitScript.VC, UIKitScript.VC) {
    let tabs = app.system("tabs", "UITabBarController")
    let nav = app.system("nav", "UINavigationController", parent: "tabs")
    let lessons = app.vc(top, parent: "nav")
    app.connect()
    app.appear(tabs, nav, lessons)
    return (tabs, nav, lessons)
  }

  @Test func afterAFullScreenModalIsDismissedTheScreensUnderItCountAgain() throws {
    let app = try UIKitScript()
    let (tabs, nav, lessons) = tabs(app)
    app.wait(10)
    app.present(app.vc("Player"), style: .fullScreen, from: "tabs", covering: [tabs, nav, lessons])
    app.wait(20)
    app.dismiss("Player")  // the player's viewDidDisappear has no window
    app.wait(5)
    #expect(app.figures("Lessons") == (15, 2))
    #expect(app.figures("Player") == (20, 1))
    // The same for a presentation UIKit does not tell the screens below about.
    app.present(app.vc("Overlay"), style: .overFullScreen, from: "tabs")
    app.wait(7)
    app.dismiss("Overlay")
    app.wait(3)
    #expect(app.figures("Lessons") == (18, 2))
    #expect(app.figures("Overlay") == (7, 1))
  }

  @Test func lockingAndSwitchingAppsPauseTheScreensWithoutNewVisits() throws {
    let app = try UIKitScript()
    _ = tabs(app)
    app.wait(10)
    for _ in 0..<3 {
      app.background()  // lock, or another app
      app.wait(100)
      app.activate()
      app.wait(10)
    }
    app.resign()  // Control Centre
    app.wait(4)
    app.activate()
    app.wait(1)
    #expect(app.figures("Lessons") == (41, 1))
    #expect(app.appTime == 41)
    #expect(app.sessions == 1)
  }

  @Test func aWindowInTheBackgroundPausesItsScreensNotTheAppWhileAnotherIsInUse() throws {
    let app = try UIKitScript()
    _ = tabs(app)
    var notes = app.vc("Notes")
    notes.window = "w2"
    notes.scene = "s2"
    app.connect("s2")
    app.appear(notes)
    app.wait(10)
    app.background("s1")
    app.wait(20)
    app.activate("s1")
    app.wait(5)
    #expect(app.figures("Lessons") == (15, 1))
    #expect(app.figures("Notes") == (35, 1))
    #expect(app.appTime == 35)
  }

  @Test func controllersOutsideTheAppsCodeAreNeverScreens() throws {
    let app = try UIKitScript()
    _ = tabs(app)
    // The keyboard's input controllers, in a window of their own.
    var input = app.system("input", "UIInputWindowController")
    input.window = "keyboard"
    var keys = app.system("keys", "UICompatibilityInputViewController", ["UIInputViewController", "UIViewController"])
    keys.parent = "input"
    keys.window = "keyboard"
    app.appear(input, keys)
    // A share sheet and its children, an image picker (a navigation controller) and its
    // private child, a mail composer, a photo picker, a document picker, the More list.
    let share = app.system("share", "UIActivityViewController")
    app.present(
      share, children: [app.system("shareContent", "_UIActivityContentViewController", parent: "share")],
      style: .pageSheet, from: "tabs")
    app.wait(2)
    app.dismiss("share")
    app.present(
      app.system("picker", "UIImagePickerController", ["UINavigationController", "UIViewController"]),
      children: [app.system("album", "PUPhotoPickerHostViewController", parent: "picker")], style: .fullScreen,
      from: "tabs")
    app.dismiss("picker")
    app.present(
      app.system("mail", "MFMailComposeViewController", ["UINavigationController", "UIViewController"]),
      children: [app.system("compose", "MFMailComposeInternalViewController", parent: "mail")], style: .formSheet,
      from: "tabs")
    app.dismiss("mail")
    for (id, name) in [("photos", "PHPickerViewController"), ("files", "UIDocumentPickerViewController")] {
      app.present(app.system(id, name), style: .formSheet, from: "tabs")
      app.dismiss(id)
    }
    app.appear(app.system("more", "UIMoreListController", parent: "tabs"))
    app.wait(3)
    #expect(app.screenNames == ["Lessons"])
    #expect(app.figures("Lessons") == (5, 1))
  }

  @Test func whereAClassIsDefinedDecidesItsOrigin() {
    let main = "/private/var/containers/Bundle/Application/1F2E/LearnApp.app"
    #expect(ControllerDescription.Origin(bundlePath: main, mainBundlePath: main) == .app)
    #expect(
      ControllerDescription.Origin(bundlePath: main + "/Frameworks/Lessons.framework", mainBundlePath: main) == .app)
    #expect(ControllerDescription.Origin(bundlePath: main + "2.app", mainBundlePath: main) == .system)
    #expect(
      ControllerDescription.Origin(
        bundlePath: "/System/Library/Frameworks/UIKit.framework", mainBundlePath: main) == .system)
    #expect(
      ControllerDescription.Origin(
        bundlePath: "/System/Library/PrivateFrameworks/UIKitCore.framework", mainBundlePath: main + "/") == .system)
    #expect(ControllerDescription.Origin(bundlePath: main + "/", mainBundlePath: main) == .app)
  }

  @Test func aSearchControllerIsNotAScreenAndDoesNotCoverTheListItFilters() throws {
    let app = try UIKitScript()
    _ = tabs(app, top: "Glossary")
    app.wait(10)
    let search = app.system("search", "UISearchController")
    app.present(search, children: [app.vc("Results", parent: "search")], style: .custom, from: "nav")
    app.wait(20)
    app.dismiss("search")
    app.wait(5)
    #expect(app.figures("Glossary") == (35, 1))
    #expect(app.figures("Results") == (20, 1))  // the app's own results controller is a screen
    #expect(app.screenNames == ["Glossary", "Results"])
  }

  @Test func overCurrentContextCoversOnlyTheSubtreeThatDefinesTheContextAndCustomCoversNothing() throws {
    let app = try UIKitScript()
    // A split view: a list on the left, its detail on the right (which defines the context).
    let split = app.system("split", "UISplitViewController")
    let left = app.system("left", "UINavigationController", parent: "split")
    let right = app.system("right", "UINavigationController", parent: "split")
    app.connect()
    app.appear(split, left, app.vc("List", parent: "left"), right, app.vc("Detail", parent: "right"))
    app.wait(10)
    app.present(app.vc("Filter"), style: .overCurrentContext, from: "right")
    app.wait(20)
    #expect(app.screens.visibleScreens == ["Filter", "List"])
    app.dismiss("Filter")
    app.wait(5)
    app.present(app.vc("Toast"), style: .custom, from: "split")
    app.wait(3)
    app.dismiss("Toast")
    #expect(app.figures("List") == (38, 1))
    #expect(app.figures("Detail") == (18, 1))
    #expect(app.figures("Filter") == (20, 1))
    #expect(app.figures("Toast") == (3, 1))
    // Over full screen covers the whole window except what it presents itself.
    var second = app.vc("Other")
    second.window = "w2"
    app.appear(second)
    app.present(app.vc("Story"), children: [app.vc("Page", parent: "Story")], style: .overFullScreen, from: "split")
    app.wait(4)
    #expect(app.screens.visibleScreens == ["Other", "Story"])
  }

  @Test func controllersWhoseClassKVOSwappedAreNamedByTheirOwnClass() throws {
    let app = try UIKitScript()
    app.connect()
    app.appear(app.vc("a", "NSKVONotifying_MyApp.LessonsViewController"))
    app.appear(app.vc("b", "NSKVONotifying_LegacyGlossaryViewController"))
    app.wait(2)
    #expect(app.screenNames == ["LessonsViewController", "LegacyGlossaryViewController"])
    #expect(ScreenNamer.name(forClass: "NSKVONotifying_MyApp.Lessons") == "Lessons")
  }

  @Test func carPlayAndExternalDisplayScenesNeverMakeTheAppActive() throws {
    let app = try UIKitScript()
    _ = tabs(app)
    app.wait(10)
    app.background()  // the phone is locked
    app.connect("car", role: .carTemplateApplication)
    var nowPlaying = app.vc("NowPlaying")
    nowPlaying.window = "carWindow"
    nowPlaying.scene = "car"
    app.appear(nowPlaying)
    app.connect("tv", role: .windowExternalDisplayNonInteractive)
    app.wait(1000)
    #expect(app.appTime == 10)
    #expect(app.figures("NowPlaying") == (0, 1))
    app.activate()  // unlocked: the car's screen counts while the app is also in use
    app.wait(6)
    app.handle(.sceneDidDisconnect(ScreenInstance("car")))
    app.wait(4)
    #expect(app.appTime == 20)
    #expect(app.figures("NowPlaying") == (6, 1))
    #expect(app.figures("Lessons") == (20, 1))
    #expect(app.sessions == 1)
  }

  @Test func theScreensInsideTheAppsOwnContainersCountWhenThePolicyNamesThem() throws {
    for containers in [Set<String>(), ["SideMenuController"]] {
      var policy = ScreenPolicy()
      policy.containers = containers
      let app = try UIKitScript(policy: policy)
      app.connect()
      let menu = app.vc("menu", "MyApp.SideMenuController")
      let feed = app.vc("Feed", parent: "menu")
      app.appear(menu, feed)
      app.wait(10)
      app.disappear(feed)
      app.appear(app.vc("Settings", parent: "menu"))
      app.wait(5)
      if containers.isEmpty {
        #expect(app.screenNames == ["SideMenuController"])  // the menu takes all the time
        #expect(app.figures("SideMenuController") == (15, 1))
      } else {
        #expect(app.screenNames == ["Feed", "Settings"])
        #expect(app.figures("Feed") == (10, 1))
        #expect(app.figures("Settings") == (5, 1))
      }
    }
  }

  @Test func aScreenThatAppearsWhileItsSceneIsNotActiveIsAVisitWithoutTime() throws {
    let app = try UIKitScript()
    app.connect(active: false)
    app.appear(app.vc("Restored"))
    app.wait(5)
    #expect(app.figures("Restored") == (0, 1))
    app.activate()
    app.wait(5)
    #expect(app.figures("Restored") == (5, 1))
  }
}
