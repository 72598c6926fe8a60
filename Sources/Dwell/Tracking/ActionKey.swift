// The key of an action's per-day count: a day and the action's name.

/// A key of the pending action counts: the day and the action's name.
struct ActionKey: Hashable, Sendable {
  var day: Day
  var name: String
}
