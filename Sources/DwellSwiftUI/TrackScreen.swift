#if canImport(SwiftUI)
  public import Dwell
  public import SwiftUI

  extension View {
    /// Tracks this view as a screen named `name`: one visit while it is on screen, counted
    /// while its own scene (window) is active and no UIKit `overFullScreen` presentation
    /// covers it.
    ///
    /// Each appearance of the view is one identity for the view's lifetime, so SwiftUI's
    /// repeated `onAppear` calls never double count. It works in `TabView` (the selected
    /// tab), `NavigationStack` (the top view) and sheets (both the sheet and the view
    /// under it count, as with UIKit page sheets). Locking the device, switching apps or
    /// using another iPad window pauses the visit; it does not start a new one.
    ///
    /// ```swift
    /// LessonsView().trackScreen("Lessons")
    /// ```
    public func trackScreen(_ name: String, tracker: Tracker = .shared) -> some View {
      modifier(TrackScreenModifier(name: name, tracker: tracker))
    }

    /// Tracks the app lifecycle from each window's `scenePhase`: put it on the root view of
    /// every `WindowGroup` (the windows feed one lifecycle, so one window in the background
    /// does not pause the app while another is in use). It also watches the windows' touches
    /// for the idle timeout, handles clock and time-zone changes and termination, and commits
    /// inside a background task when the app leaves. An app that also tracks UIKit screens
    /// starts them with `DwellUIKit.start(tracksAppLifecycle: false)`.
    public func trackAppLifecycle(tracker: Tracker = .shared) -> some View {
      modifier(AppLifecycleModifier(tracker: tracker))
    }
  }

  /// ``View/trackScreen(_:tracker:)``: one identity for the view's lifetime, whose facts
  /// (on screen, its scene's phase, its window) ``SwiftUIScreens`` turns into events.
  struct TrackScreenModifier: ViewModifier {
    let name: String
    let tracker: Tracker
    @Environment(\.scenePhase) private var scenePhase
    @State private var id = ScreenInstance(UUID().uuidString)
    @State private var facts = SwiftUIScreens.Facts(phase: .foregroundActive)

    func body(content: Content) -> some View {
      content
        .onAppear {
          change {
            $0.phase = SceneCoordinator.SceneState(scenePhase)
            $0.inHierarchy = true
          }
        }
        .onDisappear { change { $0.inHierarchy = false } }
        .onChange(of: scenePhase) { _, phase in change { $0.phase = SceneCoordinator.SceneState(phase) } }
        #if canImport(UIKit) && !os(watchOS)
          .background {
            ScreenPlacementProbe { window, host in
              change {
                $0.window = window
                $0.host = host
              }
            }
          }
        #endif
    }

    private func change(_ body: (inout SwiftUIScreens.Facts) -> Void) {
      var next = facts
      body(&next)
      facts = next
      AppLifecycle.shared(for: tracker).screens.update(id, name: name, facts: next)
    }
  }
#endif
