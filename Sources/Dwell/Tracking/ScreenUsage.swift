// A screen's accrued figures as queries read them.

/// Accrued usage of one screen name.
struct ScreenUsage: Sendable {
  let name: String
  var tally = Tally()
  var visits = 0
  /// How many instances with this name are visible and not paused now: the name accrues
  /// while this is above zero (and the app accrues).
  var visible = 0
}
