import Testing

@testable import Dwell

/// SwiftUI screens (`trackScreen`), decided by ``SwiftUIScreens`` from what each modifier
/// knows: a visit while on screen (and scrolled into view for `whenVisible:`), paused while its
/// own scene is not active or a UIKit presentation covers its window, as UIKit screens are.
@Suite struct SwiftUIScreenTests {
  /// A UIKit process (coordinator on a real engine) with the app's SwiftUI screens beside it.
  final class App {
    let uikit: UIKitScript
    let swiftUI: SwiftUIScreens
    var events: [LifecycleEvent] = []

    init() throws {
      let uikit = try UIKitScript()
      self.uikit = uikit
      var record: (LifecycleEvent) -> Void = { _ in }
      swiftUI = SwiftUIScreens { record($0) }
      record = { [unowned self] event in
        events.append(event)
        uikit.engine.record(event)
      }
      swiftUI.coordinator = uikit.screens
    }

    /// The facts of a SwiftUI screen on screen in `window`, held by controller `host`.
    func shown(
      _ phase: SceneCoordinator.SceneState = .foregroundActive, window: String? = "w1", host: String? = "root"
    ) -> SwiftUIScreens.Facts {
      var facts = SwiftUIScreens.Facts(phase: phase)
      facts.inHierarchy = true
      facts.window = window.map { ScreenInstance($0) }
      facts.host = host.map { ScreenInstance($0) }
      return facts
    }
  }

  let notes = ScreenInstance("notes")
  let reader = ScreenInstance("reader")

  @Test func aBackgroundWindowsScreenPausesWhileAnotherWindowIsActive() throws {
    let app = try App()
    app.uikit.connect("s1")
    app.uikit.connect("s2")
    app.swiftUI.update(notes, name: "Notes", facts: app.shown(window: "w1"))
    app.swiftUI.update(reader, name: "Reader", facts: app.shown(window: "w2"))
    app.uikit.wait(10)
    // The user taps into the Notes window: the Reader window's scene resigns active.
    app.swiftUI.update(reader, name: "Reader", facts: app.shown(.foregroundInactive, window: "w2"))
    app.uikit.wait(10)
    #expect(app.uikit.figures("Notes") == (20, 1))
    #expect(app.uikit.figures("Reader") == (10, 1))
    app.swiftUI.update(reader, name: "Reader", facts: app.shown(window: "w2"))
    app.uikit.wait(5)
    #expect(app.uikit.figures("Reader") == (15, 1))
  }

  @Test func lockingAndSwitchingAppsPauseAndResumeWithoutANewVisit() throws {
    let app = try App()
    app.swiftUI.update(notes, name: "Notes", facts: app.shown())
    for phase: SceneCoordinator.SceneState in [
      .foregroundInactive, .background, .foregroundInactive, .foregroundActive,
    ] {
      app.swiftUI.update(notes, name: "Notes", facts: app.shown(phase))
    }
    app.swiftUI.update(notes, name: "Notes", facts: app.shown(.foregroundInactive))  // app switcher
    app.swiftUI.update(notes, name: "Notes", facts: app.shown())
    #expect(
      app.events == [
        .appear(screen: "Notes", id: notes), .pause(id: notes), .resume(id: notes), .pause(id: notes),
        .resume(id: notes),
      ])
  }

  @Test func aScreenAppearingInAnInactiveSceneHasAVisitThatStartsPaused() throws {
    let app = try App()
    app.swiftUI.update(notes, name: "Notes", facts: app.shown(.foregroundInactive))
    app.swiftUI.update(notes, name: "Notes", facts: app.shown())
    var gone = app.shown()
    gone.inHierarchy = false
    app.swiftUI.update(notes, name: "Notes", facts: gone)
    #expect(
      app.events == [.appear(screen: "Notes", id: notes), .pause(id: notes), .resume(id: notes), .disappear(id: notes)])
    #expect(app.swiftUI.shownScreens.isEmpty)
  }

  @Test func aUIKitOverFullScreenPresentationPausesTheSwiftUIScreensOfItsWindowOnly() throws {
    let app = try App()
    app.uikit.connect("s1")
    app.uikit.connect("s2")
    var root = app.uikit.vc("root", "UIHostingController")
    root.origin = .system
    app.uikit.appear(root)
    app.swiftUI.update(notes, name: "Notes", facts: app.shown(window: "w1", host: "root"))
    app.swiftUI.update(reader, name: "Reader", facts: app.shown(window: "w2", host: "other"))
    app.uikit.wait(10)
    app.uikit.present(app.uikit.vc("Player"), style: .overFullScreen, from: "root")
    // A SwiftUI view inside the presented controller is not covered by it.
    let caption = ScreenInstance("caption")
    app.swiftUI.update(caption, name: "Caption", facts: app.shown(window: "w1", host: "Player"))
    app.uikit.wait(20)
    app.uikit.dismiss("Player")
    var gone = app.shown(window: nil, host: "Player")
    gone.inHierarchy = false
    app.swiftUI.update(caption, name: "Caption", facts: gone)
    app.uikit.wait(5)
    #expect(app.uikit.figures("Notes") == (15, 1))  // the dismissal is no visit
    #expect(app.uikit.figures("Reader") == (35, 1))
    #expect(app.uikit.figures("Caption") == (20, 1))
    #expect(app.uikit.figures("Player") == (20, 1))
  }

  @Test func anOverCurrentContextPresentationPausesTheSwiftUIScreensInsideItsContext() throws {
    let app = try App()
    app.uikit.connect()
    let split = app.uikit.vc("split", "UISplitViewController")
    let detail = app.uikit.vc("detail", "UIHostingController", parent: "split")
    let side = app.uikit.vc("side", "UIHostingController", parent: "split")
    app.uikit.appear(split, detail, side)
    app.swiftUI.update(notes, name: "Notes", facts: app.shown(host: "detail"))
    app.swiftUI.update(reader, name: "Reader", facts: app.shown(host: "side"))
    let unhosted = ScreenInstance("unhosted")
    app.swiftUI.update(unhosted, name: "Unhosted", facts: app.shown(host: nil))
    app.uikit.present(app.uikit.vc("Sheet"), style: .overCurrentContext, from: "detail")
    #expect(app.events.suffix(1) == [.pause(id: notes)])
    app.uikit.dismiss("Sheet")
    #expect(app.events.suffix(2) == [.pause(id: notes), .resume(id: notes)])
  }

  @Test func aScreenShownBeforeTheCoordinatorIsKnownIsDecidedWhenItIs() throws {
    let uikit = try UIKitScript()
    uikit.connect()
    uikit.appear(uikit.vc("root"))
    uikit.present(uikit.vc("Overlay"), style: .overFullScreen, from: "root")
    var events: [LifecycleEvent] = []
    let screens = SwiftUIScreens { events.append($0) }
    var facts = SwiftUIScreens.Facts(phase: .foregroundActive)
    facts.inHierarchy = true
    facts.window = ScreenInstance("w1")
    screens.update(ScreenInstance("a"), name: "A", facts: facts)
    screens.coordinator = uikit.screens
    #expect(events == [.appear(screen: "A", id: ScreenInstance("a")), .pause(id: ScreenInstance("a"))])
  }

  // MARK: whenVisible:

  @Test func anOffScreenSectionThatAppearedDoesNotCountUntilItIsVisible() throws {
    let app = try App()
    let section = ScreenInstance("section")
    var facts = SwiftUIScreens.Facts(phase: .foregroundActive, waitsForScroll: true)
    facts.inHierarchy = true  // onAppear, below the fold
    app.swiftUI.update(section, name: "Extras", facts: facts)
    #expect(app.events.isEmpty)
    facts.scrolledIn = true  // scrolled to
    app.swiftUI.update(section, name: "Extras", facts: facts)
    app.swiftUI.update(section, name: "Extras", facts: facts)
    facts.scrolledIn = false  // scrolled past
    app.swiftUI.update(section, name: "Extras", facts: facts)
    facts.inHierarchy = false
    app.swiftUI.update(section, name: "Extras", facts: facts)
    #expect(app.events == [.appear(screen: "Extras", id: section), .disappear(id: section)])
  }

  @Test func leavingTheHierarchyEndsTheVisitAndScrollVisibilityAloneDoesNotStartOne() throws {
    let app = try App()
    let section = ScreenInstance("section")
    var facts = SwiftUIScreens.Facts(phase: .foregroundActive, waitsForScroll: true)
    facts.scrolledIn = true  // a report before onAppear
    app.swiftUI.update(section, name: "Extras", facts: facts)
    facts.inHierarchy = true
    app.swiftUI.update(section, name: "Extras", facts: facts)
    facts.inHierarchy = false  // the tab changed while it was visible
    app.swiftUI.update(section, name: "Extras", facts: facts)
    facts.scrolledIn = false
    app.swiftUI.update(section, name: "Extras", facts: facts)
    facts.scrolledIn = true
    app.swiftUI.update(section, name: "Extras", facts: facts)
    facts.inHierarchy = true
    app.swiftUI.update(section, name: "Extras", facts: facts)
    #expect(
      app.events == [
        .appear(screen: "Extras", id: section), .disappear(id: section), .appear(screen: "Extras", id: section),
      ])
  }

  @Test func aVisibleSectionFollowsItsSceneAndTheCoversOfItsWindow() throws {
    let app = try App()
    app.uikit.connect()
    app.uikit.appear(app.uikit.vc("root"))
    let section = ScreenInstance("section")
    var facts = SwiftUIScreens.Facts(phase: .foregroundActive, waitsForScroll: true)
    facts.inHierarchy = true
    facts.scrolledIn = true
    facts.window = ScreenInstance("w1")
    app.swiftUI.update(section, name: "Extras", facts: facts)
    facts.phase = .background  // locked
    app.swiftUI.update(section, name: "Extras", facts: facts)
    facts.phase = .foregroundActive
    app.swiftUI.update(section, name: "Extras", facts: facts)
    app.uikit.present(app.uikit.vc("Overlay"), style: .overFullScreen, from: "root")
    app.uikit.dismiss("Overlay")
    #expect(
      app.events == [
        .appear(screen: "Extras", id: section), .pause(id: section), .resume(id: section), .pause(id: section),
        .resume(id: section),
      ])
  }
}
