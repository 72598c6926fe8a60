#if canImport(SwiftUI)
  internal import Dwell
  internal import Foundation
  internal import SwiftUI

  /// One window's part of the app lifecycle (`trackAppLifecycle()`): its scene phase, under
  /// an identity kept for the window's lifetime, feeds the app's one ``AppLifecycle``, so a
  /// repeated `onAppear` sends nothing twice and windows never pause each other. When the view
  /// leaves the hierarchy (`onDisappear`) the window is removed from the app's scenes, so it
  /// never keeps the app active; it is added again when the view appears again.
  struct AppLifecycleModifier: ViewModifier {
    let tracker: Tracker
    @Environment(\.scenePhase) private var scenePhase
    @State private var window = ScreenInstance(UUID().uuidString)

    func body(content: Content) -> some View {
      content
        .onAppear {
          let app = AppLifecycle.shared(for: tracker)
          PlatformLifecycle.install(in: app, tracker: tracker)
          app.windowAppeared(window, in: SceneCoordinator.SceneState(scenePhase))
        }
        .onChange(of: scenePhase) { _, phase in
          AppLifecycle.shared(for: tracker).window(window, is: SceneCoordinator.SceneState(phase))
        }
        .onDisappear {
          AppLifecycle.shared(for: tracker).windowDisappeared(window)
        }
    }
  }
#endif
