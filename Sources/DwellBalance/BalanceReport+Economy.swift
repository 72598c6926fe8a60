// The economy's figures of a report: recurring earnings by persona, progress of those without a rule, levels by persona.

extension BalanceReport.RuleRow {
  /// A recurring rule's earnings per user by persona and checkpoint, and the spread of
  /// one user's earnings by the last day, of all users and of each persona's.
  mutating func addEarnings(_ stats: BalanceStats, rule r: Int, personas: Int) {
    let marks = stats.checkpoints
    var all: [Int32] = []
    for p in 0..<personas {
      let users = Double(max(stats.users[p], 1))
      var running = 0.0
      var byDay: [Double] = []
      for day in 0..<stats.days {
        running += Double(stats.earnings[(p * stats.rules + r) * stats.days + day])
        byDay.append(running)
      }
      personaEarnings.append(marks.map { byDay[$0 - 1] / users })
      let last = stats.userEarnings[(p * stats.rules + r) * marks.count + marks.count - 1]
      personaEarningSpread.append(BalanceReport.spread(last.map(Double.init)))
      all += last
    }
    earningSpread = BalanceReport.spread(all.sorted().map(Double.init))
  }

  /// The median progress, by checkpoint, of the users who do not have the rule yet.
  mutating func addProgress(_ stats: BalanceStats, rule r: Int, personas: Int) {
    let marks = stats.checkpoints.count
    progress = (0..<marks).map { c in
      var histogram = Array(repeating: 0, count: 101)
      for p in 0..<personas {
        let cell = (p * stats.rules + r) * marks + c
        for percent in 0...100 { histogram[percent] += Int(stats.progress[cell * 101 + percent]) }
        if stats.progressReported[cell] > 0 { progressByPlugin = true }
      }
      return BalanceReport.median(histogram).map { Double($0) / 100 }
    }
  }
}

extension BalanceReport.PersonaRow {
  /// The persona's share at each level by day, and its median level by checkpoint.
  mutating func addLevels(_ stats: BalanceStats, persona p: Int, hasLevels: Bool) {
    guard hasLevels else { return }
    let total = Double(max(users, 1))
    var medians: [Int] = []
    levelShares = (0..<stats.days).map { day in
      let counts = (0..<stats.levels).map { Int(stats.levelCounts[(p * stats.days + day) * stats.levels + $0]) }
      if stats.checkpoints.contains(day + 1) { medians.append(BalanceReport.median(counts) ?? 0) }
      return counts.map { Double($0) / total }
    }
    medianLevels = medians
  }
}

extension BalanceReport {
  /// The nearest-rank median of values given as a histogram (`counts[value]` users had
  /// `value`); `nil` with no users.
  static func median(_ counts: [Int]) -> Int? {
    let total = counts.reduce(0, +)
    guard total > 0 else { return nil }
    let rank = (total + 1) / 2
    var seen = 0
    for (value, count) in counts.enumerated() {
      seen += count
      if seen >= rank { return value }
    }
    return counts.count - 1
  }
}
