// What a balance run keeps: counts and samples over all users, merged from workers in any order.

/// The figures of a balance run, summed over users. Workers each fill one and they are
/// merged; nothing in it depends on the order users were simulated in (samples are
/// sorted before they are read), so any number of threads gives the same report.
package struct BalanceStats: Sendable {
  /// One user's unlock of one rule.
  package struct Sample: Sendable, Comparable {
    /// The day of the unlock, 0 = the install day.
    package var day: Int32
    /// Minutes with the app active before the unlock, in milliseconds.
    package var activeMs: Int64

    package static func < (a: Sample, b: Sample) -> Bool { (a.day, a.activeMs) < (b.day, b.activeMs) }
  }

  /// How often a notification was posted, and to how many users.
  package struct Posted: Sendable, Equatable {
    package var fired = 0
    package var users = 0
  }

  package let days: Int
  package let rules: Int
  package let personas: Int
  package let levels: Int
  /// The days after which points are sampled (1-based, ascending).
  package let checkpoints: [Int]
  /// Users per persona.
  package private(set) var users: [Int]
  /// Users who unlocked each rule on each day: `[(persona * rules + rule) * days + day]`.
  package private(set) var unlockDays: [Int32]
  /// Earnings of recurring rules on each day: `[(persona * rules + rule) * days + day]`.
  package private(set) var earnings: [Int32]
  /// Unlock samples by `persona * rules + rule`.
  package private(set) var samples: [[Sample]]
  /// Users at each level at the end of each day: `[(persona * days + day) * levels + level]`.
  package private(set) var levelCounts: [Int32]
  /// Points at the end of each checkpoint day, by `persona * checkpoints.count + checkpoint`.
  package private(set) var points: [[Int]]
  /// Users who used the app on each day: `[persona * days + day]`.
  package private(set) var activeUsers: [Int32]
  /// Active minutes (milliseconds) of each user by the end of the run, by persona.
  package private(set) var activeMs: [[Int64]]
  /// Points plugins awarded over all users, by plugin.
  package private(set) var awards: [String: Int] = [:]
  /// Notifications by "source: title".
  package private(set) var notifications: [String: Posted] = [:]
  /// Each user's earnings of each recurring rule by the end of each checkpoint day:
  /// `[(persona * rules + rule) * checkpoints.count + checkpoint]` (empty for other rules).
  package private(set) var userEarnings: [[Int32]]
  /// The progress of the users who have not unlocked a rule (earned once) by the end of a
  /// checkpoint day, in whole percents: `[((persona * rules + rule) * checkpoints.count +
  /// checkpoint) * 101 + percent]` users; ``progressReported`` of them as a plugin reported it.
  package private(set) var progress: [Int32]
  package private(set) var progressReported: [Int32]
  /// Errors raised by scripts, and the first few distinct messages (alphabetically).
  package private(set) var scriptErrors = 0
  package private(set) var errorMessages: [String] = []

  package init(days: Int, rules: Int, personas: Int, levels: Int) {
    self.days = days
    self.rules = rules
    self.personas = personas
    self.levels = max(levels, 1)
    let marks = Self.checkpoints(days: days)
    checkpoints = marks
    users = Array(repeating: 0, count: personas)
    unlockDays = Array(repeating: 0, count: personas * rules * days)
    earnings = Array(repeating: 0, count: personas * rules * days)
    samples = Array(repeating: [], count: personas * rules)
    levelCounts = Array(repeating: 0, count: personas * days * self.levels)
    points = Array(repeating: [], count: personas * marks.count)
    activeUsers = Array(repeating: 0, count: personas * days)
    activeMs = Array(repeating: [], count: personas)
    userEarnings = Array(repeating: [], count: personas * rules * marks.count)
    progress = Array(repeating: 0, count: personas * rules * marks.count * 101)
    progressReported = Array(repeating: 0, count: personas * rules * marks.count)
  }

  /// The days after which figures are sampled (1-based, ascending): 1, 7, 30 and the last,
  /// those within `days`.
  package static func checkpoints(days: Int) -> [Int] {
    var marks: [Int] = []
    for day in [1, 7, 30, days] where day <= days && day > (marks.last ?? 0) { marks.append(day) }
    return marks
  }

  // MARK: Recording one user

  mutating func addUser(persona: Int, activeMs total: Int64) {
    users[persona] += 1
    activeMs[persona].append(total)
  }

  mutating func unlocked(persona: Int, rule: Int, day: Int, activeMs: Int64) {
    guard day >= 0, day < days else { return }
    unlockDays[(persona * rules + rule) * days + day] += 1
    samples[persona * rules + rule].append(Sample(day: Int32(day), activeMs: activeMs))
  }

  mutating func earned(persona: Int, rule: Int, day: Int) {
    guard day >= 0, day < days else { return }
    earnings[(persona * rules + rule) * days + day] += 1
  }

  /// One user's earnings (rule index, day), counted by checkpoint for each recurring rule.
  mutating func userEarned(persona: Int, _ list: [(rule: Int, day: Int)], recurring: [Int]) {
    for rule in recurring {
      for (c, mark) in checkpoints.enumerated() {
        let count = list.count { $0.rule == rule && $0.day < mark }
        userEarnings[(persona * rules + rule) * checkpoints.count + c].append(Int32(clamping: count))
      }
    }
  }

  /// A user without rule `rule` at the end of checkpoint `checkpoint`, `fraction` of the way.
  mutating func progressed(persona: Int, rule: Int, checkpoint: Int, fraction: Double, reported: Bool) {
    guard rule >= 0, rule < rules, checkpoint >= 0, checkpoint < checkpoints.count else { return }
    let cell = (persona * rules + rule) * checkpoints.count + checkpoint
    let percent = fraction.isNaN ? 0 : Int((min(max(fraction, 0), 1) * 100).rounded(.down))
    progress[cell * 101 + percent] += 1
    if reported { progressReported[cell] += 1 }
  }

  mutating func endOfDay(persona: Int, day: Int, level: Int, points value: Int, active: Bool) {
    guard day < days else { return }
    levelCounts[(persona * days + day) * levels + min(max(level, 0), levels - 1)] += 1
    if active { activeUsers[persona * days + day] += 1 }
    if let mark = checkpoints.firstIndex(of: day + 1) { points[persona * checkpoints.count + mark].append(value) }
  }

  mutating func awarded(_ source: String, points: Int) {
    let (sum, overflow) = awards[source, default: 0].addingReportingOverflow(points)
    awards[source] = overflow ? .max : sum
  }

  mutating func posted(_ key: String, times: Int) {
    notifications[key, default: Posted()].fired += times
    notifications[key, default: Posted()].users += 1
  }

  mutating func scriptError(_ message: String) {
    scriptErrors += 1
    keep(message)
  }

  private mutating func keep(_ message: String) {
    guard !errorMessages.contains(message) else { return }
    errorMessages.append(message)
    errorMessages.sort()
    if errorMessages.count > 5 { errorMessages.removeLast() }
  }

  // MARK: Merging

  /// Adds another worker's figures.
  package mutating func merge(_ other: BalanceStats) {
    for i in users.indices { users[i] += other.users[i] }
    for i in unlockDays.indices { unlockDays[i] += other.unlockDays[i] }
    for i in earnings.indices { earnings[i] += other.earnings[i] }
    for i in samples.indices { samples[i] += other.samples[i] }
    for i in levelCounts.indices { levelCounts[i] += other.levelCounts[i] }
    for i in points.indices { points[i] += other.points[i] }
    for i in activeUsers.indices { activeUsers[i] += other.activeUsers[i] }
    for i in activeMs.indices { activeMs[i] += other.activeMs[i] }
    for i in userEarnings.indices { userEarnings[i] += other.userEarnings[i] }
    for i in progress.indices { progress[i] += other.progress[i] }
    for i in progressReported.indices { progressReported[i] += other.progressReported[i] }
    for (key, value) in other.notifications {
      notifications[key, default: Posted()].fired += value.fired
      notifications[key, default: Posted()].users += value.users
    }
    for (source, points) in other.awards { awarded(source, points: points) }
    scriptErrors += other.scriptErrors
    for message in other.errorMessages { keep(message) }
  }

  /// Puts every sample list in order, so reading them gives the same result whatever
  /// order workers merged in.
  package mutating func normalize() {
    for i in samples.indices { samples[i].sort() }
    for i in points.indices { points[i].sort() }
    for i in activeMs.indices { activeMs[i].sort() }
    for i in userEarnings.indices { userEarnings[i].sort() }
  }
}
