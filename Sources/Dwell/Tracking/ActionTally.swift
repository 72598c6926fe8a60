/// How often one action (``LifecycleEvent/action(_:count:)``) was recorded: all time and
/// per local day (the day of each action's instant).
struct ActionTally: Sendable, Equatable {
  var count = 0
  var days: [Day: Int] = [:]

  /// Adds `n` on `day`, saturating (a damaged store's counts must not trap).
  mutating func add(_ n: Int, on day: Day) {
    count.addSaturating(n)
    days[day, default: 0].addSaturating(n)
  }

  /// The most one action event counts (``LifecycleEvent/action(_:count:)``), as in a trace.
  static let maximumCount = 1_000_000
}
