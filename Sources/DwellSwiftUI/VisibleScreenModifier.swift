#if canImport(SwiftUI)
  public import Dwell
  internal import Foundation
  public import SwiftUI

  extension View {
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
      return modifier(VisibleScreenModifier(name: name, threshold: threshold, tracker: tracker))
    }
  }

  /// ``View/trackScreen(_:whenVisible:tracker:)``: one identity for the view's lifetime, whose
  /// facts (on screen, scrolled into view, its scene's phase, its window) ``SwiftUIScreens``
  /// turns into events.
  struct VisibleScreenModifier: ViewModifier {
    let name: String
    let threshold: Double
    let tracker: Tracker
    @Environment(\.scenePhase) private var scenePhase
    @State private var id = ScreenInstance(UUID().uuidString)
    @State private var facts = SwiftUIScreens.Facts(phase: .foregroundActive, waitsForScroll: true)

    func body(content: Content) -> some View {
      content
        .onAppear {
          change {
            $0.phase = SceneCoordinator.SceneState(scenePhase)
            $0.inHierarchy = true
          }
        }
        .onDisappear { change { $0.inHierarchy = false } }
        .onScrollVisibilityChange(threshold: threshold) { visible in change { $0.scrolledIn = visible } }
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
