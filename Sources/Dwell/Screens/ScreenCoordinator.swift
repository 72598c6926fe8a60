/// Turns view-controller callbacks into screen events, following a ``ScreenPolicy``.
///
/// The UIKit adapter calls it from `viewDidAppear`/`viewDidDisappear` (and presentations);
/// it holds only which instances are visible, so repeated callbacks never double count,
/// and a presenter covered by a full-screen presentation stops accruing. Main thread only.
public final class ScreenCoordinator {
  /// How a controller was presented.
  public enum Presentation: Sendable {
    /// Page and form sheets, popovers: the presenter stays visible (both accrue).
    case sheet
    /// Full screen, or over full screen, or over the current context: the presenter is covered.
    case fullScreen
  }

  /// The policy in force.
  public var policy: ScreenPolicy
  private let emit: (LifecycleEvent) -> Void
  private var visible: [ScreenInstance: String] = [:]
  /// Presenters covered by full-screen presentations, by the presented controller.
  private var covered: [ScreenInstance: [(ScreenInstance, String)]] = [:]

  /// Creates a coordinator that sends events to `emit` (usually `tracker.record`).
  public init(policy: ScreenPolicy = ScreenPolicy(), emit: @escaping (LifecycleEvent) -> Void) {
    self.policy = policy
    self.emit = emit
  }

  /// A controller's view appeared.
  public func didAppear(_ controller: ControllerDescription) {
    guard visible[controller.id] == nil, let name = policy.screenName(for: controller) else { return }
    visible[controller.id] = name
    emit(.appear(screen: name, id: controller.id))
  }

  /// A controller's view disappeared.
  public func didDisappear(_ controller: ControllerDescription) {
    guard visible.removeValue(forKey: controller.id) != nil else { return }
    emit(.disappear(id: controller.id))
  }

  /// `presented` was presented over the visible screens. For full-screen styles UIKit does
  /// not always tell the presenter it disappeared (`.overFullScreen`); the coordinator
  /// hides the covered screens itself and shows them again when `presented` is dismissed.
  public func didPresent(_ presented: ControllerDescription, style: Presentation) {
    guard style == .fullScreen else { return }
    let hidden = visible.filter { $0.key != presented.id }
    guard !hidden.isEmpty else { return }
    covered[presented.id] = hidden.map { ($0.key, $0.value) }
    for (id, _) in hidden {
      visible[id] = nil
      emit(.disappear(id: id))
    }
  }

  /// `presented` was dismissed: screens it covered are visible again.
  public func didDismiss(_ presented: ControllerDescription) {
    didDisappear(presented)
    for (id, name) in covered.removeValue(forKey: presented.id) ?? [] where visible[id] == nil {
      visible[id] = name
      emit(.appear(screen: name, id: id))
    }
  }

  /// Names of the visible screens (for debugging views).
  public var visibleScreens: [String] { visible.values.sorted() }
}

/// Combines the activation states of an app's scenes into one app lifecycle: app time is
/// counted once however many scenes (iPad windows) are active.
public final class SceneCoordinator {
  /// A scene's state, as UIKit reports it.
  public enum SceneState: Sendable {
    case foregroundActive, foregroundInactive, background, unattached
  }

  private let emit: (LifecycleEvent) -> Void
  private var scenes: [ScreenInstance: SceneState] = [:]
  private var appState: SceneState = .unattached

  /// Creates a coordinator that sends app events to `emit`.
  public init(emit: @escaping (LifecycleEvent) -> Void) { self.emit = emit }

  /// A scene changed state (or was created).
  public func scene(_ id: ScreenInstance, is state: SceneState) {
    if state == .unattached { scenes[id] = nil } else { scenes[id] = state }
    let states = Set(scenes.values)
    let combined: SceneState =
      states.contains(.foregroundActive)
      ? .foregroundActive
      : states.contains(.foregroundInactive)
        ? .foregroundInactive : states.contains(.background) ? .background : .unattached
    transition(to: combined)
  }

  private func transition(to next: SceneState) {
    let previous = appState
    guard next != previous else { return }
    appState = next
    switch (previous, next) {
    case (_, .foregroundActive):
      if previous == .background || previous == .unattached { emit(.foreground) }
      emit(.active)
    case (.foregroundActive, .foregroundInactive):
      emit(.inactive)
    case (_, .foregroundInactive):
      if previous == .background || previous == .unattached { emit(.foreground) }
    case (_, .background), (_, .unattached):
      if previous == .foregroundActive { emit(.inactive) }
      if previous != .background { emit(.background) }
    }
  }
}
