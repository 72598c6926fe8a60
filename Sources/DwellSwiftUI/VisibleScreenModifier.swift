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
    /// ``trackScreen(_:tracker:)``).
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

  /// ``View/trackScreen(_:whenVisible:tracker:)``: one identity for the view's lifetime, counted
  /// while ``ScreenVisibility`` says so.
  struct VisibleScreenModifier: ViewModifier {
    let name: String
    let threshold: Double
    let tracker: Tracker
    @State private var id = ScreenInstance(UUID().uuidString)
    @State private var visibility = ScreenVisibility()

    func body(content: Content) -> some View {
      content
        .onAppear { apply(visibility.inHierarchy(true)) }
        .onDisappear { apply(visibility.inHierarchy(false)) }
        .onScrollVisibilityChange(threshold: threshold) { visible in apply(visibility.visible(visible)) }
    }

    private func apply(_ change: ScreenVisibility.Change?) {
      switch change {
      case .appear: tracker.screenAppeared(name, id: id)
      case .disappear: tracker.screenDisappeared(id: id)
      case nil: break
      }
    }
  }
#endif
