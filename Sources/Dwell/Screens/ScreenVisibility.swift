/// Whether a SwiftUI screen tracked with `trackScreen(_:whenVisible:)` counts: while its view
/// is in the hierarchy (`onAppear` to `onDisappear`) and visible enough in its scroll view
/// (`onScrollVisibilityChange`). A view in a `ScrollView` gets `onAppear` while it is still
/// off screen, so appearing alone does not count; it is not visible until SwiftUI says so.
package struct ScreenVisibility: Sendable {
  /// What the tracker is told.
  package enum Change: Equatable, Sendable {
    case appear, disappear
  }

  private var inHierarchy = false
  private var visible = false

  package init() {}

  private var counts: Bool { inHierarchy && visible }

  /// The view appeared (`true`) or disappeared (`false`).
  package mutating func inHierarchy(_ shown: Bool) -> Change? {
    update { $0.inHierarchy = shown }
  }

  /// The view crossed the visibility threshold (`true`: visible enough).
  package mutating func visible(_ visible: Bool) -> Change? {
    update { $0.visible = visible }
  }

  private mutating func update(_ body: (inout Self) -> Void) -> Change? {
    let before = counts
    body(&self)
    if counts == before { return nil }
    return counts ? .appear : .disappear
  }
}
