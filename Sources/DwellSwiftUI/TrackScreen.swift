#if canImport(SwiftUI)
  public import Dwell
  public import SwiftUI

  extension View {
    /// Tracks this view as a screen named `name` while it is on screen.
    ///
    /// Each appearance of the view is one identity for the view's lifetime, so SwiftUI's
    /// repeated `onAppear` calls never double count. It works in `TabView` (the selected
    /// tab), `NavigationStack` (the top view) and sheets (both the sheet and the view
    /// under it count, as with UIKit page sheets).
    ///
    /// ```swift
    /// LessonsView().trackScreen("Lessons")
    /// ```
    public func trackScreen(_ name: String, tracker: Tracker = .shared) -> some View {
      modifier(TrackScreenModifier(name: name, tracker: tracker))
    }

    /// Maps the app's `scenePhase` to lifecycle events. Put it once on the root view of a
    /// SwiftUI app that does not use `DwellUIKit.start()`.
    public func trackAppLifecycle(tracker: Tracker = .shared) -> some View {
      modifier(AppLifecycleModifier(tracker: tracker))
    }
  }

  struct TrackScreenModifier: ViewModifier {
    let name: String
    let tracker: Tracker
    @State private var id = ScreenInstance(UUID().uuidString)

    func body(content: Content) -> some View {
      content
        .onAppear { tracker.screenAppeared(name, id: id) }
        .onDisappear { tracker.screenDisappeared(id: id) }
    }
  }

  struct AppLifecycleModifier: ViewModifier {
    let tracker: Tracker
    @Environment(\.scenePhase) private var scenePhase
    @State private var scenes: SceneCoordinator?

    func body(content: Content) -> some View {
      content
        .onAppear {
          let coordinator = SceneCoordinator { event in tracker.record(event) }
          scenes = coordinator
          coordinator.scene(ScreenInstance("swiftui"), is: state(scenePhase))
        }
        .onChange(of: scenePhase) { _, phase in
          scenes?.scene(ScreenInstance("swiftui"), is: state(phase))
          if phase == .background {
            Task.detached(priority: .utility) { try? tracker.engine?.commit() }
          }
        }
    }

    private func state(_ phase: ScenePhase) -> SceneCoordinator.SceneState {
      switch phase {
      case .active: return .foregroundActive
      case .inactive: return .foregroundInactive
      case .background: return .background
      @unknown default: return .foregroundInactive
      }
    }
  }
#endif
