// The key of a per-day rollup row.

/// A key of the per-day rollup: a day and a screen index (-1 for the whole app).
struct DayKey: Hashable, Sendable {
  var day: Day
  var screen: Int32
}
