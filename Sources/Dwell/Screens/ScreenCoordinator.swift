/// Every decision of UIKit screen tracking, made from UIKit's callbacks as plain values
/// (``handle(_:)``): which controllers are screens, when a screen instance is visible, when
/// a presentation covers it, which scenes make the app active. It sends the tracker the
/// events of <doc:Accounting>: `appear` at each visit, `disappear` at its end, `pause` and
/// `resume` while a visible instance is covered or its scene is not active, and the app's
/// lifecycle through ``lifecycle``. Main thread only.
///
/// The UIKit adapter reads the facts from the live controller at each callback and calls
/// ``handle(_:)``; the trace tests call the same method with the facts of a recorded trace.
/// A coordinator made without `emit` keeps what it is told and sends nothing until
/// ``start(emit:)``, which adopts the screens already visible.
package final class ScreenCoordinator {
  /// The policy in force.
  package var policy: ScreenPolicy
  /// The app lifecycle that `windowApplication` scenes feed; `nil` when another part of the
  /// app (SwiftUI's `trackAppLifecycle()`) feeds it.
  package var lifecycle: SceneCoordinator?
  private var emit: ((LifecycleEvent) -> Void)?
  /// Called after each change of covers or scene states (``SwiftUIScreens`` re-decides its
  /// screens' pauses).
  package var onChange: (() -> Void)?

  /// What the controllers last reported, for the ancestry of later callbacks: `parent` and
  /// `presenting` as last reported for each. Forgotten with their scene, or when there are
  /// more than ``knownLimit`` and nothing visible or covering leads to them.
  var known: [ScreenInstance: Known] = [:]
  /// How many controllers' facts are kept before those no visible screen needs are dropped.
  static let knownLimit = 1024
  /// The visible screen instances, in the order they appeared.
  var visible: [Visible] = []
  /// Presentations that cover screens without UIKit telling them (`overFullScreen`,
  /// `overCurrentContext`), oldest first.
  var covers: [Cover] = []
  /// Connected scenes.
  var scenes: [ScreenInstance: Scene] = [:]

  struct Known {
    var parent: ScreenInstance?
    var presenting: ScreenInstance?
    var isContent: Bool
    var scene: ScreenInstance?
  }

  struct Visible {
    var id: ScreenInstance
    var name: String
    var scene: ScreenInstance?
    var window: ScreenInstance?
    var paused: Bool
  }

  struct Cover {
    var presented: ScreenInstance
    var presenting: ScreenInstance?
    var style: ControllerDescription.Style
    var window: ScreenInstance?
    var scene: ScreenInstance?
  }

  struct Scene {
    var role: SceneRole
    var state: SceneCoordinator.SceneState
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

  /// Starts sending events to `emit`; screens that appeared before are adopted (one visit
  /// each, paused if they are covered or their scene is not active).
  package func start(emit: @escaping (LifecycleEvent) -> Void) {
    self.emit = emit
    for screen in visible {
      emit(.appear(screen: screen.name, id: screen.id))
      if screen.paused { emit(.pause(id: screen.id)) }
    }
  }

  /// One UIKit callback, in the order UIKit makes them.
  package func handle(_ callback: UIKitCallback) {
    switch callback {
    case .viewWillAppear(let controller), .viewWillDisappear(let controller):
      remember(controller)
    case .viewDidAppear(let controller):
      remember(controller)
      didAppear(controller)
    case .viewDidDisappear(let controller):
      remember(controller)
      didDisappear(controller.id)
    case .sceneWillConnect(let id, let role):
      scenes[id] = Scene(role: role, state: .background)
    case .sceneWillEnterForeground(let id): scene(id, is: .foregroundInactive)
    case .sceneDidBecomeActive(let id): scene(id, is: .foregroundActive)
    case .sceneWillResignActive(let id): scene(id, is: .foregroundInactive)
    case .sceneDidEnterBackground(let id): scene(id, is: .background)
    case .sceneDidDisconnect(let id): disconnect(id)
    case .touch: emit?(.interact)
    }
  }

  /// Whether scene `id` is connected, as far as the coordinator was told.
  package func knowsScene(_ id: ScreenInstance) -> Bool { scenes[id] != nil }

  /// Closes the visits of screens UIKit no longer shows though it never said so (a controller
  /// whose `viewDidDisappear` does not call `super`, or one freed while visible). The adapter
  /// calls it with whether each visible controller is still in a window.
  package func reconcile(isShown: (ScreenInstance) -> Bool) {
    for screen in visible where !isShown(screen.id) { didDisappear(screen.id) }
  }

  /// The controllers that are visible screens (accruing or paused), oldest first.
  package var shownControllers: [ScreenInstance] { visible.map(\.id) }

  /// Names of the screens accruing now (visible and not paused), for debugging views.
  package var visibleScreens: [String] { Set(visible.filter { !$0.paused }.map(\.name)).sorted() }

  // MARK: Decisions

  private func remember(_ controller: ControllerDescription) {
    known[controller.id] = Known(
      parent: controller.parent, presenting: controller.presenting, isContent: policy.isContent(controller),
      scene: controller.windowScene ?? known[controller.id]?.scene)
    if known.count > Self.knownLimit { forgetUnneeded(keeping: controller.id) }
  }

  /// Drops the facts of controllers that neither a visible screen nor a cover leads to
  /// (following `parent` and `presenting`), so that an app showing ever new controllers
  /// does not keep them all.
  private func forgetUnneeded(keeping current: ScreenInstance) {
    var needed: Set<ScreenInstance> = []
    let starts =
      [current] + visible.map(\.id) + covers.flatMap { [$0.presented] + ($0.presenting.map { [$0] } ?? []) }
    for start in starts {
      var node: ScreenInstance? = start
      while let id = node, needed.insert(id).inserted {
        node = known[id].flatMap { $0.parent ?? $0.presenting }
      }
    }
    known = known.filter { needed.contains($0.key) }
  }

  private func didAppear(_ controller: ControllerDescription) {
    if !visible.contains(where: { $0.id == controller.id }),
      let name = policy.screenName(for: controller, insideContent: hasContentAncestor(controller.id))
    {
      visible.append(
        Visible(id: controller.id, name: name, scene: controller.windowScene, window: controller.window, paused: false))
      emit?(.appear(screen: name, id: controller.id))
    }
    if controller.isBeingPresented, controller.presenting != nil, let style = controller.style,
      style == .overFullScreen || style == .overCurrentContext,
      !covers.contains(where: { $0.presented == controller.id })
    {
      covers.append(
        Cover(
          presented: controller.id, presenting: controller.presenting, style: style, window: controller.window,
          scene: controller.windowScene))
    }
    refresh()
  }

  private func didDisappear(_ id: ScreenInstance) {
    if let index = visible.firstIndex(where: { $0.id == id }) {
      visible.remove(at: index)
      emit?(.disappear(id: id))
    }
    if covers.contains(where: { $0.presented == id }) {
      covers.removeAll { $0.presented == id }
      refresh()
    }
  }

  private func scene(_ id: ScreenInstance, is state: SceneCoordinator.SceneState) {
    var scene = scenes[id] ?? Scene(role: .windowApplication, state: .background)
    scene.state = state
    scenes[id] = scene
    if scene.role.makesAppActive { lifecycle?.scene(id, is: state) }
    refresh()
  }

  private func disconnect(_ id: ScreenInstance) {
    let role = scenes.removeValue(forKey: id)?.role ?? .windowApplication
    for screen in visible where screen.scene == id { didDisappear(screen.id) }
    covers.removeAll { $0.scene == id }
    known = known.filter { $0.value.scene != id }
    if role.makesAppActive { lifecycle?.scene(id, is: .unattached) }
    refresh()
  }

  /// Pauses the visible instances that are covered or whose scene is not active, resumes
  /// the others; then tells ``onChange``.
  private func refresh() {
    for index in visible.indices {
      let paused = isPaused(visible[index])
      guard paused != visible[index].paused else { continue }
      visible[index].paused = paused
      emit?(paused ? .pause(id: visible[index].id) : .resume(id: visible[index].id))
    }
    onChange?()
  }

  /// Whether a presentation covers a view that is not a controller (a SwiftUI screen) in
  /// `window`, held by the view of controller `host`: by the rules of UIKit screens, with
  /// `host` in the place of the screen's controller. Without a window nothing covers it;
  /// without a host, only `overFullScreen` presentations in its window do.
  package func covers(window: ScreenInstance?, host: ScreenInstance?) -> Bool {
    guard let window else { return false }
    let screen = Visible(id: host ?? window, name: "", scene: nil, window: window, paused: false)
    return covers.contains { covers(screen, $0) }  // without a host, no context holds it
  }

  private func isPaused(_ screen: Visible) -> Bool {
    if let scene = screen.scene, let state = scenes[scene]?.state, state != .foregroundActive { return true }
    return covers.contains { covers(screen, $0) }
  }

  /// Whether `cover` hides `screen`: `overFullScreen` hides its whole window, except the
  /// presented controller's own subtree; `overCurrentContext` the subtree of the controller
  /// that defines the context (`presenting`), except the presented controller's.
  private func covers(_ screen: Visible, _ cover: Cover) -> Bool {
    if isInside(screen.id, cover.presented) { return false }
    switch cover.style {
    case .overCurrentContext:
      guard let context = cover.presenting else { return false }
      return isInside(screen.id, context)
    default:
      return screen.window != nil && screen.window == cover.window
    }
  }

  /// Whether `id` is `root` or below it: following `parent`, and from a presented
  /// controller (no parent) the controller presenting it, as last reported.
  private func isInside(_ id: ScreenInstance, _ root: ScreenInstance) -> Bool {
    var current: ScreenInstance? = id
    var steps = 0
    while let node = current, steps < 256 {
      if node == root { return true }
      current = known[node].flatMap { $0.parent ?? $0.presenting }
      steps += 1
    }
    return false
  }

  /// Whether a content controller is among the ancestors of `id` (following `parent`).
  private func hasContentAncestor(_ id: ScreenInstance) -> Bool {
    var current = known[id]?.parent
    var steps = 0
    while let node = current, steps < 256 {
      guard let facts = known[node] else { return false }
      if facts.isContent { return true }
      current = facts.parent
      steps += 1
    }
    return false
  }
}
