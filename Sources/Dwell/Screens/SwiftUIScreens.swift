/// Every decision of SwiftUI screen tracking (`trackScreen(_:)` and
/// `trackScreen(_:whenVisible:)`), made from what each screen's modifier knows as plain
/// values (``Facts``): a visit while the view is on screen (and, for `whenVisible:`, scrolled
/// into view); within it, accrual only while the view's own scene is active and no UIKit
/// presentation covers it. A scene phase change or a cover is a `pause`/`resume`, never a new
/// visit, so locking the device, switching apps or using another iPad window adds no visits.
/// Main thread only.
///
/// Covers are the UIKit ``coordinator``'s (`overFullScreen` and `overCurrentContext`
/// presentations, as for UIKit screens): a SwiftUI screen whose ``Facts/window`` is known is
/// paused by an `overFullScreen` presentation in that window, unless its ``Facts/host`` (the
/// controller whose view holds it) is inside the presented controller's subtree; an
/// `overCurrentContext` presentation pauses it when its host is inside the context. With no
/// coordinator (a SwiftUI-only app) or no window known yet, nothing covers it.
///
/// The app has one (``AppLifecycle/screens``); it holds only the screens on screen now, each
/// modifier keeps its own ``Facts``.
package final class SwiftUIScreens {
  /// What a SwiftUI screen's modifier knows about its view.
  package struct Facts: Hashable, Sendable {
    /// Between `onAppear` and `onDisappear`.
    package var inHierarchy = false
    /// Visible enough in its scroll view; always `true` for `trackScreen(_:)`.
    package var scrolledIn: Bool
    /// Its scene's phase (`@Environment(\.scenePhase)` read inside the view).
    package var phase: SceneCoordinator.SceneState
    /// The window the view is in, once known.
    package var window: ScreenInstance?
    /// The nearest view controller whose view holds the view (a `UIHostingController`), once known.
    package var host: ScreenInstance?

    /// The facts of a view not yet on screen, in a scene in `phase`; `waitsForScroll` for
    /// `trackScreen(_:whenVisible:)`, which does not count until scrolled into view.
    package init(phase: SceneCoordinator.SceneState, waitsForScroll: Bool = false) {
      self.phase = phase
      scrolledIn = !waitsForScroll
    }

    /// Whether the screen has a visit now.
    var isShown: Bool { inHierarchy && scrolledIn }
  }

  private struct Shown {
    var name: String
    var facts: Facts
    var paused: Bool
  }

  private let emit: (LifecycleEvent) -> Void
  private var shown: [ScreenInstance: Shown] = [:]
  /// The order screens appeared in, so that a refresh sends its events in a stable order.
  private var order: [ScreenInstance] = []

  /// The UIKit screens' coordinator, whose covers pause SwiftUI screens too; held weakly.
  /// Setting it makes its changes (covers, scene states) refresh these screens.
  package weak var coordinator: ScreenCoordinator? {
    didSet {
      coordinator?.onChange = { [weak self] in self?.refresh() }
      refresh()
    }
  }

  /// Creates the screens of an app that sends events to `emit` (usually `tracker.record`).
  package init(emit: @escaping (LifecycleEvent) -> Void) { self.emit = emit }

  /// Screen `id`, named `name`, now has `facts` (after any change): sends its `appear`,
  /// `disappear`, `pause` or `resume`.
  package func update(_ id: ScreenInstance, name: String, facts: Facts) {
    guard facts.isShown else {
      if shown.removeValue(forKey: id) != nil {
        order.removeAll { $0 == id }
        emit(.disappear(id: id))
      }
      return
    }
    if shown[id] == nil {
      shown[id] = Shown(name: name, facts: facts, paused: false)
      order.append(id)
      emit(.appear(screen: name, id: id))
    } else {
      shown[id]?.facts = facts
    }
    settle(id)
  }

  /// Re-decides every shown screen's pause (after the UIKit covers or scenes changed).
  package func refresh() {
    for id in order { settle(id) }
  }

  /// The screens with a visit now, paused or not, in the order they appeared.
  package var shownScreens: [ScreenInstance] { order }

  private func settle(_ id: ScreenInstance) {
    guard let screen = shown[id] else { return }
    let paused =
      screen.facts.phase != .foregroundActive
      || coordinator?.covers(window: screen.facts.window, host: screen.facts.host) == true
    guard paused != screen.paused else { return }
    shown[id]?.paused = paused
    emit(paused ? .pause(id: id) : .resume(id: id))
  }
}
