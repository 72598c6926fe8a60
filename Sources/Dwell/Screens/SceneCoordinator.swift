/// Combines the activation states of an app's scenes into one app lifecycle: app time is
/// counted once however many scenes (iPad windows) are active, and one window going to the
/// background does not pause the app while another is active. Main thread only.
///
/// An app has one (``AppLifecycle/scenes``), fed by every scene that makes the app active:
/// UIKit's `windowApplication` scenes (through ``ScreenCoordinator``, which leaves CarPlay and
/// external-display scenes out) and each SwiftUI window's `trackAppLifecycle()`.
package final class SceneCoordinator {
  /// A scene's state, as UIKit reports it.
  package enum SceneState: Sendable {
    case foregroundActive, foregroundInactive, background, unattached
  }

  private let emit: (LifecycleEvent) -> Void
  /// Called after the app (every scene) entered the background: where adapters commit.
  package var onBackground: (() -> Void)?
  private var scenes: [ScreenInstance: SceneState] = [:]
  private var appState: SceneState = .unattached

  /// Creates a coordinator that sends app events to `emit`.
  package init(emit: @escaping (LifecycleEvent) -> Void) { self.emit = emit }

  /// A scene changed state (or was created).
  package func scene(_ id: ScreenInstance, is state: SceneState) {
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
      if previous != .background {
        emit(.background)
        onBackground?()
      }
    }
  }
}
