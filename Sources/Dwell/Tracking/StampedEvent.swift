// A recorded event with the instant it was recorded at.

/// An event stamped with the monotonic instant at which it was recorded.
struct StampedEvent: Sendable {
  var at: Int64
  var event: LifecycleEvent
}
