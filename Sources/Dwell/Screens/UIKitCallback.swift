/// One callback UIKit makes on the main thread, with what an observer can read at that
/// moment, as plain values: the one input of ``ScreenCoordinator/handle(_:)``. The UIKit
/// adapter builds it from the live controller or scene; the trace tests read it from JSON.
package enum UIKitCallback: Sendable, Equatable {
  /// `viewWillAppear(_:)`: never changes visibility (it can be cancelled).
  case viewWillAppear(ControllerDescription)
  /// `viewDidAppear(_:)`: a screen instance becomes visible; a presentation may cover others.
  case viewDidAppear(ControllerDescription)
  /// `viewWillDisappear(_:)`: never changes visibility (it can be cancelled).
  case viewWillDisappear(ControllerDescription)
  /// `viewDidDisappear(_:)`: a screen instance stops being visible; a cover ends.
  case viewDidDisappear(ControllerDescription)
  /// `scene(_:willConnectTo:options:)`: a scene starts, in the background.
  case sceneWillConnect(ScreenInstance, role: SceneRole)
  /// `sceneWillEnterForeground(_:)`: background to inactive.
  case sceneWillEnterForeground(ScreenInstance)
  /// `sceneDidBecomeActive(_:)`: inactive to active.
  case sceneDidBecomeActive(ScreenInstance)
  /// `sceneWillResignActive(_:)`: active to inactive.
  case sceneWillResignActive(ScreenInstance)
  /// `sceneDidEnterBackground(_:)`: inactive to background.
  case sceneDidEnterBackground(ScreenInstance)
  /// `sceneDidDisconnect(_:)`: the scene and its screens are gone.
  case sceneDidDisconnect(ScreenInstance)
  /// A touch began in `window` of `scene` (for the idle timeout).
  case touch(scene: ScreenInstance?, window: ScreenInstance?)
}
