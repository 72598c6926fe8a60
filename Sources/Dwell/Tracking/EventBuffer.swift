/// The hot path's only shared state: an append-only buffer behind an uncontended lock.
///
/// Recording costs one clock read (by the caller) and one append here. The buffer is
/// swapped out whole by the engine; its capacity is kept so steady state never allocates.
final class EventBuffer: Sendable {
  private let storage = Locked<[StampedEvent]>([])

  init() { storage.withLock { $0.reserveCapacity(256) } }

  /// Moves the event in `pending` (leaving `nil`) into the buffer, stamped `at`, without a
  /// copy of it (a retain of its screen name) to release. Returns the number of events now
  /// waiting.
  @inline(__always)
  func append(_ pending: inout LifecycleEvent?, at: Int64) -> Int {
    storage.withLock {
      if let event = pending.take() { $0.append(StampedEvent(at: at, event: event)) }
      return $0.count
    }
  }

  /// How many events wait.
  var count: Int { storage.withLock { $0.count } }

  /// Appends a copy of the waiting events from `start` on to `events`, leaving them
  /// waiting (queries).
  func copy(from start: Int, into events: inout [StampedEvent]) {
    storage.withLock { if start < $0.count { events += $0[max(start, 0)...] } }
  }

  /// Moves every waiting event into `into` (which must be empty), keeping capacities.
  func drain(into spare: inout [StampedEvent]) {
    storage.withLock { swap(&$0, &spare) }
  }
}
