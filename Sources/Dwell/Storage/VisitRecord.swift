// A visit as a checkpoint carries it.

/// One visit: a screen instance's stay on screen, with the active time it accrued.
struct VisitRecord: Sendable, Equatable {
  var screen: String
  var started: WallInstant
  var ended: WallInstant
  var activeNanos: Int64
}
