// Points a listener awarded, as a checkpoint carries them.

/// Points awarded by a listener.
struct Award: Sendable, Equatable {
  var source: String
  var points: Int
  var reason: String
  var wall: WallInstant
}
