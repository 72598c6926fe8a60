// The actions a condition names, for tools that check what a designer typed against them.

extension Condition {
  /// The action names this condition and its parts name, in order, repeats kept.
  package var actionNames: [String] {
    switch self {
    case .actions(let name, _), .actionDays(_, let name, _), .actionStreak(_, let name, _): return [name]
    case .within(_, let part): return part.actionNames
    case .all(let parts), .any(let parts): return parts.flatMap(\.actionNames)
    default: return []
    }
  }
}
