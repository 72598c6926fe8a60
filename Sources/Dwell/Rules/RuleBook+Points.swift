/// How the rule book counts points for `points` and `level` conditions and the `level_up`
/// event: the points total, the order in which rules unlocking at one instant add theirs,
/// and the levels reached.
extension RuleBook {
  /// The levels sorted by points (ties in declared order), and each name's points (the last
  /// declared wins: a pack's level overrides the app's of the same name).
  static func levelTable(_ levels: [Level]) -> ([Level], [String: Int]) {
    let sorted = levels.enumerated().sorted { ($0.element.points, $0.offset) < ($1.element.points, $1.offset) }
      .map(\.element)
    var byName: [String: Int] = [:]
    for level in levels { byName[level.name] = level.points }
    return (sorted, byName)
  }

  /// The points total: those plugins awarded, of the unlocked rules and of the earnings.
  func points(_ accountant: borrowing Accountant) -> Int {
    var total = accountant.points
    total.addSaturating(rulePoints)
    return total
  }

  /// The levels reached since last asked, lowest first, as `level_up` events with the
  /// points total; none for the levels reached before the book was made.
  mutating func takeLevelUps(_ accountant: borrowing Accountant) -> [UsageEvent] {
    guard levelsReached < levels.count else { return [] }
    let total = points(accountant)
    var events: [UsageEvent] = []
    while levelsReached < levels.count, levels[levelsReached].points <= total {
      events.append(.levelUp(levels[levelsReached].name, total))
      levelsReached += 1
    }
    return events
  }
}

extension RuleBook.Context {
  /// Starts counting points for the evaluation at `total`.
  mutating func preparePoints(_ total: Int, _ levels: [String: Int]) {
    points = total
    levelPoints = levels
  }

  /// Rule `rule` holds in this evaluation: later conditions see it unlocked and, if it is
  /// `new` (not unlocked before), its points.
  mutating func reach(_ rule: Rule, _ new: Bool) {
    fresh.insert(rule.id)
    if new { points.addSaturating(rule.points) }
  }
}
