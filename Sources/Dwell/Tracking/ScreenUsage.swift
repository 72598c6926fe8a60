// A screen's accrued figures as queries read them.

/// Accrued usage of one screen name.
struct ScreenUsage: Sendable {
  let name: String
  var tally = Tally()
  var visits = 0
  /// How many instances with this name are visible and not paused now: the name accrues
  /// while this is above zero (and the app accrues).
  var visible = 0
  /// For a screen: where the screen groups it is in that the engine measures sit in the
  /// accountant's screens (``Accountant/measure(groups:)``). A group's own `visible` counts
  /// its members' accruing instances, so it accrues once while any of them does.
  var groups: [Int32] = []
}
