/// The hot path's only shared state: an append-only buffer behind an uncontended lock.
///
/// Recording costs one clock read (by the caller) and one append here. The buffer is
/// swapped out whole by the engine; its capacity is kept so steady state never allocates.
final class EventBuffer: Sendable {
  private let storage = Locked<Storage>(Storage())

  private struct Storage {
    var events: [StampedEvent] = []
    /// The events that can make a waiting rule hold (``EventInterest``), set by the engine.
    var interest = EventInterest.none
    /// Whether the writer was asked to apply a wanted event and has not drained since:
    /// a burst of wanted events asks it once.
    var wakeAsked = false
    /// Events the writer drained and is still applying (``backlog``).
    var applying = 0
  }

  init() { storage.withLock { $0.events.reserveCapacity(256) } }

  /// Moves the event in `pending` (leaving `nil`) into the buffer, stamped `at`, without a
  /// copy of it (a retain of its screen name) to release. Returns the number of events now
  /// waiting, and whether the writer should apply them now: the event is one the rules
  /// want (``EventInterest/wants(_:)``) and the writer was not asked since it last drained.
  @inline(__always)
  func append(_ pending: inout LifecycleEvent?, at: Int64) -> (waiting: Int, wanted: Bool) {
    storage.withLock {
      var wanted = false
      if let event = pending.take() {
        if !$0.wakeAsked, $0.interest.wants(event) {
          wanted = true
          $0.wakeAsked = true
        }
        $0.events.append(StampedEvent(at: at, event: event))
      }
      return ($0.events.count, wanted)
    }
  }

  /// Puts in force which events the rules want (the engine's, when its rules change).
  func setInterest(_ interest: EventInterest) {
    storage.withLock { $0.interest = interest }
  }

  /// Events waiting, and drained but not yet applied: how far behind the writer is.
  var backlog: Int { storage.withLock { $0.events.count + $0.applying } }

  /// The writer applied what it drained last.
  func applied() { storage.withLock { $0.applying = 0 } }

  /// How many events wait.
  var count: Int { storage.withLock { $0.events.count } }

  /// Appends a copy of the waiting events from `start` on to `events`, leaving them
  /// waiting (queries).
  func copy(from start: Int, into events: inout [StampedEvent]) {
    storage.withLock { if start < $0.events.count { events += $0.events[max(start, 0)...] } }
  }

  /// Moves every waiting event into `into` (which must be empty), keeping capacities.
  func drain(into spare: inout [StampedEvent]) {
    storage.withLock {
      swap(&$0.events, &spare)
      $0.wakeAsked = false
      $0.applying = spare.count
    }
  }
}
