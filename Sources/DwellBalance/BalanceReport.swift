// The figures a designer reads, computed from a run's merged counts: shares, percentiles, curves.
internal import Dwell

/// The outcome of a balance run, ready to print: per rule, per persona, per day.
package struct BalanceReport: Sendable {
  /// Low, middle and high percentiles (10th, 50th, 90th) of a figure among the users who unlocked.
  package struct Spread: Sendable, Equatable {
    package var p10: Double
    package var p50: Double
    package var p90: Double
  }

  /// One rule (an unlock, or an achievement tier).
  package struct RuleRow: Sendable {
    package var info: BalancePack.RuleInfo
    /// Share of all users who have it by the end of each checkpoint day.
    package var shares: [Double]
    /// The same, by persona: `[persona][checkpoint]`.
    package var personaShares: [[Double]]
    /// Day of the unlock (1 = the install day) and active minutes before it, among those who unlocked.
    package var days: Spread?
    package var minutes: Spread?
    /// By persona: the median day and active minutes (`nil`: no user of the persona unlocked it).
    package var personaDays: [Double?]
    package var personaMinutes: [Double?]
    /// Share of all users who have it by the end of each day (cumulative).
    package var curve: [Double]
    /// A recurring rule's earnings per user (all users) by the end of each checkpoint day,
    /// and on each day of the run; empty for a rule earned once.
    package var earnings: [Double] = []
    package var earningsByDay: [Double] = []
    /// The same by persona, `[persona][checkpoint]`, and the spread of one user's earnings
    /// by the last day (the 10th, 50th, 90th percentile of all users, and of each persona's).
    package var personaEarnings: [[Double]] = []
    package var earningSpread: Spread?
    package var personaEarningSpread: [Spread?] = []
    /// For a rule earned once: by each checkpoint day, the median progress (0...1, as the
    /// app's `progress(of:)` gives it) of the users who do not have it yet (`nil`: none, or
    /// a scripted check whose plugin reports no progress), and whether a plugin reported it.
    package var progress: [Double?] = []
    package var progressByPlugin = false
    /// A recurring rule's earnings per user per period of the run (its days divided by
    /// 1, 7 or 30.44 for `every` day, week or month).
    package var earningsPerPeriod: Double? {
      guard let every = info.every, !earningsByDay.isEmpty else { return nil }
      let length = every == "week" ? 7 : every == "month" ? 30.44 : 1
      return (earnings.last ?? 0) / max(Double(earningsByDay.count) / length, 1)
    }
    /// No simulated user unlocked it.
    package var never: Bool { shares.last == 0 }
    /// Every user had it on their first day.
    package var everyoneOnDayOne: Bool { shares.first == 1 }
  }

  /// One persona.
  package struct PersonaRow: Sendable {
    package var name: String
    package var users: Int
    /// Median points at the end of each checkpoint day.
    package var medianPoints: [Int]
    /// Median active minutes over the whole run.
    package var medianMinutes: Double
    /// Share of the persona's users who used the app on each day.
    package var retention: [Double]
    /// Share of the persona's users at each level at the end of each day: `[day][level]`.
    package var levelShares: [[Double]] = []
    /// The median level (an index into ``BalanceReport/levels``) at the end of each checkpoint day.
    package var medianLevels: [Int] = []
  }

  package var pack: String
  package var users: Int
  package var days: Int
  package var seed: UInt64
  /// The checkpoint days (1-based): 1, 7, 30 and the last, those within the run.
  package var checkpoints: [Int]
  package var rules: [RuleRow]
  package var personas: [PersonaRow]
  /// Level names, lowest first (empty: the pack has no levels).
  package var levels: [String]
  /// Share of users at each level at the end of each day: `[day][level]`.
  package var levelShares: [[Double]]
  /// Share of all users who used the app on each day.
  package var retention: [Double]
  /// Notifications plugins posted: "source: title", times posted, users who got it.
  package var notifications: [(key: String, fired: Int, users: Int)]
  package var scriptErrors: Int
  package var errorMessages: [String]
  /// Where points come from: each rule worth points (`rule <id>`, its unlocks or a
  /// recurring rule's earnings) and each plugin that awarded some (`plugin <name>`), with
  /// the points per user over the whole run, most first.
  package var pointsBySource: [(source: String, perUser: Double)] = []

  package init(stats: BalanceStats, pack: BalancePack, population: Population, seed: UInt64) {
    self.pack = pack.path
    users = stats.users.reduce(0, +)
    days = stats.days
    self.seed = seed
    checkpoints = stats.checkpoints
    let total = max(users, 1)
    let personaCount = population.personas.count
    rules = pack.rules.enumerated().map { index, info in
      Self.row(index, info, stats, personaCount, total)
    }
    personas = population.personas.enumerated().map { p, persona in
      let users = stats.users[p]
      var row = PersonaRow(
        name: persona.name, users: users,
        medianPoints: stats.checkpoints.indices.map { c in
          Self.nearestRank(stats.points[p * stats.checkpoints.count + c], 0.5).map(Int.init) ?? 0
        },
        medianMinutes: (Self.nearestRank(stats.activeMs[p], 0.5) ?? 0) / 60_000,
        retention: (0..<stats.days).map { Double(stats.activeUsers[p * stats.days + $0]) / Double(max(users, 1)) })
      row.addLevels(stats, persona: p, hasLevels: !pack.levels.isEmpty)
      return row
    }
    levels = pack.levels.map(\.name)
    levelShares = (0..<stats.days).map { day in
      (0..<stats.levels).map { level in
        var count: Int32 = 0
        for p in 0..<personaCount { count += stats.levelCounts[(p * stats.days + day) * stats.levels + level] }
        return Double(count) / Double(total)
      }
    }
    retention = (0..<stats.days).map { day in
      var count: Int32 = 0
      for p in 0..<personaCount { count += stats.activeUsers[p * stats.days + day] }
      return Double(count) / Double(total)
    }
    notifications = stats.notifications.sorted { $0.key < $1.key }.map { ($0.key, $0.value.fired, $0.value.users) }
    scriptErrors = stats.scriptErrors
    errorMessages = stats.errorMessages
    var sources: [(source: String, perUser: Double)] = []
    for (r, info) in pack.rules.enumerated() where info.points > 0 {
      let counts = info.every == nil ? stats.unlockDays : stats.earnings
      var times = 0.0
      for p in 0..<personaCount {
        let first = (p * stats.rules + r) * stats.days
        for day in 0..<stats.days { times += Double(counts[first + day]) }
      }
      sources.append(("rule " + info.id, times * Double(info.points) / Double(total)))
    }
    for (source, points) in stats.awards { sources.append(("plugin " + source, Double(points) / Double(total))) }
    pointsBySource = sources.sorted { ($0.perUser, $1.source) > ($1.perUser, $0.source) }
  }

  private static func row(
    _ r: Int, _ info: BalancePack.RuleInfo, _ stats: BalanceStats, _ personas: Int, _ total: Int
  ) -> RuleRow {
    var perDay = Array(repeating: 0, count: stats.days)
    var personaShares: [[Double]] = []
    var personaDays: [Double?] = []
    var personaMinutes: [Double?] = []
    var all: [BalanceStats.Sample] = []
    for p in 0..<personas {
      var cumulative = 0
      var byDay: [Int] = []
      for day in 0..<stats.days {
        let count = Int(stats.unlockDays[(p * stats.rules + r) * stats.days + day])
        perDay[day] += count
        cumulative += count
        byDay.append(cumulative)
      }
      let users = max(stats.users[p], 1)
      personaShares.append(stats.checkpoints.map { Double(byDay[$0 - 1]) / Double(users) })
      let samples = stats.samples[p * stats.rules + r]
      all += samples
      personaDays.append(nearestRank(samples.map { Double($0.day + 1) }.sorted(), 0.5))
      personaMinutes.append(nearestRank(samples.map { Double($0.activeMs) / 60_000 }.sorted(), 0.5))
    }
    var curve: [Double] = []
    var running = 0
    for count in perDay {
      running += count
      curve.append(Double(running) / Double(total))
    }
    let days = all.map { Double($0.day + 1) }.sorted()
    let minutes = all.map { Double($0.activeMs) / 60_000 }.sorted()
    var row = RuleRow(
      info: info, shares: stats.checkpoints.map { curve[$0 - 1] }, personaShares: personaShares,
      days: spread(days), minutes: spread(minutes), personaDays: personaDays, personaMinutes: personaMinutes,
      curve: curve)
    if info.every != nil {
      row.earningsByDay = (0..<stats.days).map { day in
        var count: Int32 = 0
        for p in 0..<personas { count += stats.earnings[(p * stats.rules + r) * stats.days + day] }
        return Double(count) / Double(total)
      }
      var running = 0.0
      let cumulative = row.earningsByDay.map {
        running += $0
        return running
      }
      row.earnings = stats.checkpoints.map { cumulative[$0 - 1] }
      row.addEarnings(stats, rule: r, personas: personas)
    } else {
      row.addProgress(stats, rule: r, personas: personas)
    }
    return row
  }

  static func spread(_ sorted: [Double]) -> Spread? {
    guard let p10 = nearestRank(sorted, 0.1), let p50 = nearestRank(sorted, 0.5), let p90 = nearestRank(sorted, 0.9)
    else { return nil }
    return Spread(p10: p10, p50: p50, p90: p90)
  }

  /// The nearest-rank percentile of sorted values (`nil` when there are none).
  static func nearestRank<T: BinaryInteger>(_ sorted: [T], _ p: Double) -> Double? {
    nearestRank(sorted.map { Double($0) }, p)
  }

  static func nearestRank(_ sorted: [Double], _ p: Double) -> Double? {
    guard !sorted.isEmpty else { return nil }
    let rank = Int((p * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
  }
}
