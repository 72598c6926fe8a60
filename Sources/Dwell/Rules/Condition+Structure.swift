/// What the rule book and the engine ask of a condition's structure: whether it holds a
/// scripted check, and which day qualifiers (minimum per day, screen) it needs kept.
extension Condition {
  package var containsCheck: Bool {
    switch self {
    case .check: return true
    case .all(let parts), .any(let parts): return parts.contains { $0.containsCheck }
    case .within(_, let inner): return inner.containsCheck
    default: return false
    }
  }

  /// Whether a part is counted within a period (`within`).
  var containsWithin: Bool {
    switch self {
    case .within: return true
    case .all(let parts), .any(let parts): return parts.contains { $0.containsWithin }
    default: return false
    }
  }

  /// Whether a part needs another rule unlocked (`unlocked`), or points that rules
  /// unlocking at the same instant may bring (`points`, `level`).
  var containsGate: Bool {
    switch self {
    case .unlocked, .points, .level: return true
    case .all(let parts), .any(let parts): return parts.contains { $0.containsGate }
    case .within(_, let inner): return inner.containsGate
    default: return false
    }
  }

  /// Whether the condition is one figure reaching a threshold (a leaf that counts).
  var isFigure: Bool {
    switch self {
    case .appTime, .screenTime, .visits, .sessions, .activeDays, .streak, .actions, .actionDays, .actionStreak:
      return true
    case .within, .unlocked, .points, .level, .all, .any, .check: return false
    }
  }

  /// Whether a part counts points (`points`, `level`).
  var containsPoints: Bool {
    switch self {
    case .points, .level: return true
    case .all(let parts), .any(let parts): return parts.contains { $0.containsPoints }
    case .within(_, let inner): return inner.containsPoints
    default: return false
    }
  }

  /// The level names `level` parts name.
  var levelNames: [String] {
    switch self {
    case .level(let name): return [name]
    case .all(let parts), .any(let parts): return parts.flatMap(\.levelNames)
    case .within(_, let inner): return inner.levelNames
    default: return []
    }
  }

  /// The parts of the condition, itself included, depth first: where each part sits.
  var nodeCount: Int {
    switch self {
    case .all(let parts), .any(let parts): return parts.reduce(1) { $0 + $1.nodeCount }
    case .within(_, let inner): return 1 + inner.nodeCount
    default: return 1
    }
  }

  func collectDayKeys(into keys: inout Set<DayQualifier.Key>) {
    switch self {
    case .activeDays(_, let minimum, let screen), .streak(_, let minimum, let screen):
      keys.insert(.init(screen: screen, minimum: minimum?.nanoseconds ?? 0))
    case .all(let parts), .any(let parts):
      for part in parts { part.collectDayKeys(into: &keys) }
    case .within(_, let inner): inner.collectDayKeys(into: &keys)
    default: break
    }
  }
}
