/// Tracker's queries beyond ``UsageQueries``: levels, the report, and imported totals.
extension Tracker: UsageQueries {
  /// What answers this tracker's queries (its engine, once the store is open), for a type
  /// that wraps the tracker and answers ``UsageQueries`` itself.
  public var usageSource: UsageSource { UsageSource(engine) }

  /// The level reached with the points so far, and the next one.
  public var level: (level: Level, next: Level?)? {
    Level.reached(points, in: live.current.configuration(base: configuration.engine).levels).map {
      ($0.level, $0.next)
    }
  }

  /// The full report (the shape of `dwell replay --json`).
  package func report() -> UsageReport? { engine?.report() }
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
  ///   - screens: seconds per screen name. A figure that is negative, NaN or infinite counts
  ///     as 0 s, one above 10^9 s (about 31 years) as 10^9 s, and sums saturate: never a trap.
  ///   - app: the app's total, if it was kept; otherwise the sum of the screens (clamped alike).
  ///   - key: names this import; a key is imported once.
  @discardableResult
  public func importTotals(screens: [String: Double], app: Double? = nil, key: String) -> Bool {
    guard let engine else { return false }
    func nanos(_ seconds: Double) -> Int64 {
      seconds.isFinite && seconds > 0 ? Int64(min(seconds, 1e9) * 1e9) : 0
    }
    var cleaned: [String: Int64] = [:]
    // Saturating: many screens of 10^9 s each pass Int64's nanoseconds.
    for (name, seconds) in screens { cleaned[ScreenName.clean(name), default: 0].addSaturating(nanos(seconds)) }
    let total = app.map(nanos) ?? cleaned.values.reduce(into: Int64(0)) { $0.addSaturating($1) }
    return engine.importTotals(app: total, screens: cleaned, key: key)
  }
}
