// The events a tracker records before it has an engine (while its store opens), in order.

/// The events recorded before a tracker has an engine, each with its instant, and the
/// events that did not fit. A reference, so appending under the phase lock never copies
/// the events already kept (an enum's payload, bound in a `switch`, is copied in debug builds).
final class OpeningEvents {
  /// The most events kept: a store that never opens (SQLite cannot open even a database in
  /// memory) must not grow the buffer without bound.
  static let capacity = 100_000

  private(set) var events: [(MonotonicInstant, LifecycleEvent)] = []
  /// Events recorded once ``capacity`` were kept, which are not counted, and the instant of
  /// the first of them (reported when the engine takes the rest: ``droppedDescription``).
  private(set) var dropped = 0
  private(set) var firstDropped: MonotonicInstant?

  /// Keeps `event`, or counts it as dropped when the buffer is full.
  func append(_ event: LifecycleEvent, at instant: MonotonicInstant) {
    guard events.count < Self.capacity else {
      if dropped == 0 { firstDropped = instant }
      dropped &+= 1
      return
    }
    events.append((instant, event))
  }

  /// What was dropped, said for ``TrackerProblem/storeUnavailable(_:)``; `nil` when nothing was.
  var droppedDescription: String? {
    guard dropped > 0 else { return nil }
    let at = firstDropped.map { " from \(Double($0.nanoseconds) / 1e9) s of monotonic time on" } ?? ""
    return "\(dropped) events recorded before the store opened were dropped\(at) "
      + "(at most \(Self.capacity) wait for it; the first \(Self.capacity) were counted)"
  }
}
