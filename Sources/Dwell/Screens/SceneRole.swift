// A UIKit scene's role, as the screen decisions read it.

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
