/// A daily goal: "10 minutes of Lessons today". Resets at local midnight.
public struct DailyGoal: Sendable, Hashable {
  /// What counts toward the goal.
  public var subject: Subject
  /// How much a day needs.
  public var target: Duration

  /// Creates a goal.
  public init(_ subject: Subject, _ target: Duration) {
    self.subject = subject
    self.target = target
  }
}

/// Where today stands against a ``DailyGoal``: "12 of 20 min".
public struct GoalProgress: Sendable, Equatable {
  /// Time counted today.
  public var done: Duration
  /// The goal.
  public var target: Duration
  /// `done / target`, at most 1.
  public var fraction: Double
  /// What is left today (zero once met).
  public var remaining: Duration
  /// Whether today's goal is met.
  public var isMet: Bool
  /// "12 of 20 min".
  public var summary: String
}

extension Tracker {
  /// Time accrued by `subject` in `period`, including the visit still open. Memory only.
  ///
  /// ```swift
  /// tracker.time(.screen("Lessons"))                 // all time
  /// tracker.time(.app, in: .today)
  /// tracker.time(.screen("Quiz"), in: .lastDays(7))
  /// ```
  public func time(_ subject: Subject = .app, in period: Period = .allTime) -> Duration {
    engine?.time(subject, in: period) ?? .zero
  }

  /// Visits of a screen, all time.
  public func visits(_ screen: String) -> Int { engine?.visits(screen) ?? 0 }

  /// Sessions so far.
  public var sessions: Int { engine?.sessions ?? 0 }

  /// Days on which `subject` reached `minimumPerDay` (any time by default).
  public func activeDays(_ subject: Subject = .app, minimumPerDay: Duration = .zero, in period: Period = .allTime)
    -> Int
  {
    engine?.activeDays(subject, minimumPerDay: minimumPerDay, in: period) ?? 0
  }

  /// Days in a row ending today, or yesterday if today does not count yet.
  public func currentStreak(_ subject: Subject = .app, minimumPerDay: Duration = .zero) -> Int {
    engine?.currentStreak(subject, minimumPerDay: minimumPerDay) ?? 0
  }

  /// The longest run of days in a row.
  public func longestStreak(_ subject: Subject = .app, minimumPerDay: Duration = .zero) -> Int {
    engine?.longestStreak(subject, minimumPerDay: minimumPerDay) ?? 0
  }

  /// Time per day for the last `days` days, oldest first (for charts).
  public func series(_ subject: Subject = .app, lastDays days: Int) -> [(day: Day, time: Duration)] {
    engine?.series(subject, lastDays: days) ?? []
  }

  /// Whether a rule is unlocked.
  public func isUnlocked(_ id: String) -> Bool { engine?.isUnlocked(id) ?? false }

  /// Progress of one rule ("18 of 30 min in Lessons"), `nil` for an unknown id.
  public func progress(of rule: String) -> RuleProgress? { engine?.progress(of: rule) }

  /// Progress of every rule, in order.
  public func progress() -> [(rule: Rule, progress: RuleProgress)] { engine?.progress() ?? [] }

  /// Today's progress toward a daily goal.
  public func progress(of goal: DailyGoal) -> GoalProgress {
    let done = time(goal.subject, in: .today)
    let target = max(goal.target, .nanoseconds(1))
    let met = done >= goal.target
    let reference = Duration.nanoseconds(goal.target.nanoseconds)
    return GoalProgress(
      done: done, target: goal.target, fraction: min(1, done.seconds / target.seconds),
      remaining: met ? .zero : goal.target - done, isMet: met,
      summary: "\(Condition.words(min(done, goal.target), like: reference)) of \(Condition.words(goal.target))")
  }

  /// Points earned (rules' points plus plugins' awards) and the level reached.
  public var points: Int { engine?.points ?? 0 }

  /// The level reached with the points so far, and the next one.
  public var level: (level: Level, next: Level?)? {
    Level.reached(points, in: configuration.levels).map { ($0.level, $0.next) }
  }

  /// The full report (the shape of `dwell replay --json`).
  public func report() -> UsageReport? { engine?.report() }
}

extension Tracker {
  /// Imports totals an app kept before Dwell (seconds per screen, the common UserDefaults
  /// approach) as starting totals, credited to today. Runs once per `key`: later calls
  /// with the same key do nothing and return `false`.
  ///
  /// ```swift
  /// let old = UserDefaults.standard.dictionary(forKey: "screenSeconds") as? [String: Double] ?? [:]
  /// await tracker.ready()
  /// tracker.importTotals(screens: old, key: "userdefaults-v1")
  /// ```
  /// - Parameters:
  ///   - screens: seconds per screen name.
  ///   - app: the app's total, if it was kept; otherwise the sum of the screens.
  ///   - key: names this import; a key is imported once.
  @discardableResult
  public func importTotals(screens: [String: Double], app: Double? = nil, key: String) -> Bool {
    guard let engine else { return false }
    func nanos(_ seconds: Double) -> Int64 {
      seconds.isFinite && seconds > 0 ? Int64(min(seconds, 1e9) * 1e9) : 0
    }
    var cleaned: [String: Int64] = [:]
    for (name, seconds) in screens { cleaned[ScreenName.clean(name), default: 0] += nanos(seconds) }
    let total = app.map(nanos) ?? cleaned.values.reduce(0, +)
    return engine.importTotals(app: total, screens: cleaned, key: key)
  }
}
