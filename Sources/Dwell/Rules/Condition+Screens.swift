// The screens a condition names, for tools that check what a designer typed against them,
// and the screen groups the engine measures for it.

extension Condition {
  /// The screen names this condition and its parts name, in order, repeats kept (a
  /// group's members, each).
  package var screens: [String] {
    names.flatMap { ScreenGroup.members($0) ?? [$0] }
  }

  /// The screen groups (``ScreenGroup``) this condition and its parts name, in order.
  var screenGroups: [String] { names.filter(ScreenGroup.isGroup) }

  /// The names this condition and its parts give where a screen goes: a screen's or a group's.
  private var names: [String] {
    switch self {
    case .screenTime(let screen, _), .visits(let screen, _): return [screen]
    case .activeDays(_, _, let screen?), .streak(_, _, let screen?): return [screen]
    case .within(_, let part): return part.names
    case .all(let parts), .any(let parts): return parts.flatMap(\.names)
    default: return []
    }
  }
}
