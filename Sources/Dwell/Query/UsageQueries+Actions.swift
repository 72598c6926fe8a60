/// Queries about actions (``LifecycleEvent/action(_:count:)``): how often one was recorded.
extension UsageQueries {
  /// How many times the action `name` was recorded in `period`, counts added up, each on
  /// the local day of its instant; zero for a name never recorded.
  ///
  /// ```swift
  /// tracker.count(ofAction: "quiz_done", in: .today)        // 3
  /// tracker.count(ofAction: "quiz_done", in: .lastDays(7))  // 12
  /// ```
  /// - Complexity: O(1) for `.allTime`, `.today` and `.day`; O(days with the action)
  ///   otherwise. Memory only.
  public func count(ofAction name: String, in period: Period = .allTime) -> Int {
    usageSource.engine?.reading { accountant, _, now -> Int in
      guard let tally = accountant.actions[name] else { return 0 }
      let today = accountant.span(at: now).day
      switch period {
      case .allTime: return tally.count
      case .today: return tally.days[today] ?? 0
      case .day(let day): return tally.days[day] ?? 0
      default:
        var total = 0
        for (day, n) in tally.days where period.contains(day, today: today) { total.addSaturating(n) }
        return total
      }
    } ?? 0
  }
}
