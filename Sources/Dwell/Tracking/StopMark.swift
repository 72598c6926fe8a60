// Where the last run of the app stopped, as the store keeps it.

/// When the app last stopped being active, for the session timeout.
struct StopMark: Sendable, Equatable {
  var mono: Int64
  var boot: String
  var wall: WallInstant
}
