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

/// `UISceneSession.Role`: what a scene is for. Only ``windowApplication`` scenes make the
/// app active; the screens of the others accrue only while the app is also active.
package enum SceneRole: Hashable, Sendable {
  /// An interactive window of the app on the device.
  case windowApplication
  /// A non-interactive window on an external display (mirroring, AirPlay).
  case windowExternalDisplayNonInteractive
  /// A CarPlay window.
  case carTemplateApplication
  /// Any other role (a later SDK's, another platform's).
  case other(String)

  /// The role named as the traces and `UISceneSession.Role`'s Swift cases name it.
  package init(name: String) {
    switch name {
    case "windowApplication": self = .windowApplication
    case "windowExternalDisplayNonInteractive", "windowExternalDisplay": self = .windowExternalDisplayNonInteractive
    case "carTemplateApplication": self = .carTemplateApplication
    default: self = .other(name)
    }
  }

  /// Whether a scene of this role being active makes the app active.
  package var makesAppActive: Bool { self == .windowApplication }
}
