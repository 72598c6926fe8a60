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
      modifier(TrackScreenModifier(name: name, threshold: nil, tracker: tracker))
    }

    /// Tracks this view as a screen named `name` while it is on screen *and* at least
    /// `threshold` (0...1) of it is visible in its scroll view, from SwiftUI's
    /// `onScrollVisibilityChange(threshold:_:)`. For sections of a `ScrollView`: SwiftUI calls
    /// `onAppear` for them while they are still off screen, so ``trackScreen(_:tracker:)``
    /// would count a section the user never scrolled to. A view here does not count until
    /// SwiftUI reports it visible, so use it for content of a scroll view (elsewhere, use
    /// ``trackScreen(_:tracker:)``). Like ``trackScreen(_:tracker:)``, it counts only while its
    /// scene is active and no UIKit `overFullScreen` presentation covers it.
    ///
    /// ```swift
    /// ScrollView {
    ///   LessonsSection().trackScreen("Lessons", whenVisible: 0.5)
    ///   ExtrasSection().trackScreen("Extras", whenVisible: 0.5)
    /// }
    /// ```
    public func trackScreen(_ name: String, whenVisible threshold: Double, tracker: Tracker = .shared) -> some View {
      let threshold = threshold.isNaN ? 0.5 : min(max(threshold, 0), 1)
      return modifier(TrackScreenModifier(name: name, threshold: threshold, tracker: tracker))
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

  /// ``View/trackScreen(_:tracker:)`` and ``View/trackScreen(_:whenVisible:tracker:)``: one
  /// identity for the view's lifetime, whose facts (on screen, scrolled into view when a
  /// `threshold` is given, its scene's phase, its window) ``SwiftUIScreens`` turns into events.
  struct TrackScreenModifier: ViewModifier {
    let name: String
    /// The visible share of the view in its scroll view that counts, or `nil` for any.
    let threshold: Double?
    let tracker: Tracker
    @Environment(\.scenePhase) private var scenePhase
    @State private var id = ScreenInstance(UUID().uuidString)
    @State private var facts: SwiftUIScreens.Facts

    init(name: String, threshold: Double?, tracker: Tracker) {
      self.name = name
      self.threshold = threshold
      self.tracker = tracker
      _facts = State(initialValue: SwiftUIScreens.Facts(phase: .foregroundActive, waitsForScroll: threshold != nil))
    }

    func body(content: Content) -> some View {
      content
        .onAppear {
          change {
            $0.phase = SceneCoordinator.SceneState(scenePhase)
            $0.inHierarchy = true
          }
        }
        .onDisappear { change { $0.inHierarchy = false } }
        // Observed for every tracked view, heeded only with a threshold: one modifier type.
        .onScrollVisibilityChange(threshold: threshold ?? 0.5) { visible in
          if threshold != nil { change { $0.scrolledIn = visible } }
        }
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
