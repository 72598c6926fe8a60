// The screens a condition names, for tools that check what a designer typed against them.

extension Condition {
  /// The screen names this condition and its parts name, in order, repeats kept.
  package var screens: [String] {
    switch self {
    case .screenTime(let screen, _), .visits(let screen, _): return [screen]
    case .activeDays(_, _, let screen?), .streak(_, _, let screen?): return [screen]
    case .within(_, let part): return part.screens
    case .all(let parts), .any(let parts): return parts.flatMap(\.screens)
    default: return []
    }
  }
}
