/// What the rule book and the engine ask of a condition's structure: whether it holds a
/// scripted check, and which day qualifiers (minimum per day, screen) it needs kept.
extension Condition {
  package var containsCheck: Bool {
    switch self {
    case .check: return true
    case .all(let parts), .any(let parts): return parts.contains { $0.containsCheck }
    default: return false
    }
  }

  func collectDayKeys(into keys: inout Set<DayQualifier.Key>) {
    switch self {
    case .activeDays(_, let minimum, let screen), .streak(_, let minimum, let screen):
      keys.insert(.init(screen: screen, minimum: minimum?.nanoseconds ?? 0))
    case .all(let parts), .any(let parts):
      for part in parts { part.collectDayKeys(into: &keys) }
    default: break
    }
  }
}
