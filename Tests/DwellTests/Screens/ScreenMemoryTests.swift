import Testing

@testable import Dwell

/// The coordinator keeps the facts of the controllers it was told about only while they
/// can matter, so an app that shows ever new controllers does not grow it without bound.
@Suite struct ScreenMemoryTests {
  @Test func factsOfControllersNothingVisibleLeadsToAreDropped() throws {
    let app = try UIKitScript()
    app.connect()
    let nav = app.system("nav", "UINavigationController")
    let list = app.vc("List", parent: "nav")
    app.appear(nav, list)
    for n in 0..<3000 {  // push and pop a new detail controller each time
      let detail = app.vc("detail-\(n)", "MyApp.DetailViewController", parent: "nav")
      app.disappear(list)
      app.appear(detail)
      app.disappear(detail)
      app.appear(list)
    }
    #expect(app.screens.known.count <= ScreenCoordinator.knownLimit + 1)
    // What the visible list needs is kept: a child of it is still part of it.
    app.appear(app.vc("Header", parent: "List"))
    app.wait(2)
    #expect(app.figures("List") == (2, 3001))
    #expect(app.figures("DetailViewController") == (0, 3000))
    #expect(app.screenNames == ["List", "DetailViewController"])
  }
}
