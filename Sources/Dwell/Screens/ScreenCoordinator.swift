/// Turns view-controller callbacks into screen events, following a ``ScreenPolicy``.
///
/// The UIKit adapter calls it from `viewDidAppear`/`viewDidDisappear`, presentations and
/// scene changes. A screen accrues while UIKit shows it, its scene is not in the background
/// and no full-screen presentation in its window covers it; the coordinator sends an event
/// only when that changes, so repeated callbacks never double count. Main thread only.
///
/// A coordinator made without `emit` remembers what appears (and the policy it is given) and
/// sends nothing until ``start(emit:)``, which adopts the screens already visible.
package final class ScreenCoordinator {
  /// How a controller was presented.
  package enum Presentation: Sendable {
    /// Page and form sheets, popovers: the presenter stays visible (both accrue).
    case sheet
    /// Full screen, or over full screen, or over the current context: the presenter is covered.
    case fullScreen
  }

  /// The policy in force.
  package var policy: ScreenPolicy
  /// The app lifecycle that scene changes also feed (``scene(_:is:)``); `nil` when another
  /// part of the app (SwiftUI's `trackAppLifecycle()`) feeds it.
  package var lifecycle: SceneCoordinator?
  private var emit: ((LifecycleEvent) -> Void)?
  /// Screens UIKit shows, with where they are.
  private var shown: [ScreenInstance: Shown] = [:]
  /// The screens whose appearance was sent (accruing).
  private var counting: Set<ScreenInstance> = []
  /// Each window's presentations, oldest first.
  private var presentations: [ScreenInstance?: [(id: ScreenInstance, fullScreen: Bool)]] = [:]
  /// Scenes in the background or gone.
  private var hiddenScenes: Set<ScreenInstance> = []

  private struct Shown {
    var name: String
    var scene: ScreenInstance?
    var window: ScreenInstance?
    var root: ScreenInstance
  }

  /// Creates a coordinator that sends events to `emit` (usually `tracker.record`) at once.
  package convenience init(policy: ScreenPolicy = ScreenPolicy(), emit: @escaping (LifecycleEvent) -> Void) {
    self.init(policy: policy)
    self.emit = emit
  }

  /// Creates a coordinator that sends nothing until ``start(emit:)``.
  package init(policy: ScreenPolicy = ScreenPolicy()) {
    self.policy = policy
  }

  /// Whether ``start(emit:)`` was called (or `emit` given at creation).
  package var isStarted: Bool { emit != nil }

  /// Starts sending events to `emit`; screens that appeared before are adopted.
  package func start(emit: @escaping (LifecycleEvent) -> Void) {
    self.emit = emit
    refresh { _ in true }
  }

  /// A controller's view appeared.
  package func didAppear(_ controller: ControllerDescription) {
    guard shown[controller.id] == nil, let name = policy.screenName(for: controller) else { return }
    shown[controller.id] = Shown(
      name: name, scene: controller.scene, window: controller.window, root: controller.root ?? controller.id)
    update(controller.id)
  }

  /// A controller's view disappeared.
  package func didDisappear(_ controller: ControllerDescription) { close(controller.id) }

  /// `presented` was presented. A full-screen one covers the screens of its own window that
  /// were there before it (UIKit does not always tell them, as with `.overFullScreen`), never
  /// its own content; they accrue again when it is dismissed.
  package func didPresent(_ presented: ControllerDescription, style: Presentation) {
    var stack = presentations[presented.window] ?? []
    guard !stack.contains(where: { $0.id == presented.id }) else { return }
    stack.append((presented.id, style == .fullScreen))
    presentations[presented.window] = stack
    refresh { $0.window == presented.window }
  }

  /// `presented` was dismissed (with whatever it presented itself).
  package func didDismiss(_ presented: ControllerDescription) {
    close(presented.id)
    if var stack = presentations[presented.window], let index = stack.firstIndex(where: { $0.id == presented.id }) {
      stack.removeSubrange(index...)
      presentations[presented.window] = stack.isEmpty ? nil : stack
    }
    refresh { $0.window == presented.window }
  }

  /// A scene changed state: the screens of a scene in the background stop, and accrue again
  /// when it returns; a disconnected scene's screens are forgotten. Also feeds ``lifecycle``.
  package func scene(_ id: ScreenInstance, is state: SceneCoordinator.SceneState) {
    lifecycle?.scene(id, is: state)
    switch state {
    case .background, .unattached: hiddenScenes.insert(id)
    case .foregroundActive, .foregroundInactive: hiddenScenes.remove(id)
    }
    refresh { $0.scene == id }
    guard state == .unattached else { return }
    for (screen, place) in shown where place.scene == id { shown[screen] = nil }
    hiddenScenes.remove(id)
  }

  /// Closes the visits of screens UIKit no longer shows though it never said so (a controller
  /// whose `viewDidDisappear` does not call `super`, or one freed while visible). The adapter
  /// calls it with whether each visible controller is still in a window.
  package func reconcile(isShown: (ScreenInstance) -> Bool) {
    for id in shown.keys where !isShown(id) { close(id) }
  }

  /// The controllers UIKit shows that are screens (accruing or covered).
  package var shownControllers: [ScreenInstance] { Array(shown.keys) }

  /// Names of the screens accruing now (for debugging views).
  package var visibleScreens: [String] { counting.compactMap { shown[$0]?.name }.sorted() }

  private func close(_ id: ScreenInstance) {
    guard shown.removeValue(forKey: id) != nil else { return }
    if counting.remove(id) != nil { emit?(.disappear(id: id)) }
  }

  private func refresh(_ affected: (Shown) -> Bool) {
    for (id, place) in shown where affected(place) { update(id) }
  }

  /// Sends what changed for one screen: it accrues when shown, started, its scene is not
  /// hidden and no full-screen presentation above its root covers its window.
  private func update(_ id: ScreenInstance) {
    guard let place = shown[id], let emit else { return }
    let accrues = !(place.scene.map(hiddenScenes.contains) ?? false) && !isCovered(place)
    if accrues, counting.insert(id).inserted {
      emit(.appear(screen: place.name, id: id))
    } else if !accrues, counting.remove(id) != nil {
      emit(.disappear(id: id))
    }
  }

  private func isCovered(_ place: Shown) -> Bool {
    guard let stack = presentations[place.window] else { return false }
    let above = (stack.firstIndex { $0.id == place.root } ?? -1) + 1
    return stack[above...].contains { $0.fullScreen }
  }
}
