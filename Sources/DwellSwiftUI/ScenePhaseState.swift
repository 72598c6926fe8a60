#if canImport(SwiftUI)
  internal import Dwell
  internal import SwiftUI

  extension SceneCoordinator.SceneState {
    /// The state of a scene in SwiftUI's `phase` (a phase a later SDK adds is taken for
    /// inactive: in the foreground, not in use).
    init(_ phase: ScenePhase) {
      switch phase {
      case .active: self = .foregroundActive
      case .inactive: self = .foregroundInactive
      case .background: self = .background
      @unknown default: self = .foregroundInactive
      }
    }
  }
#endif
