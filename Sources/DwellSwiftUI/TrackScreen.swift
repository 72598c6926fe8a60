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
#endif
