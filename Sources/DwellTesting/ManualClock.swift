public import Dwell
internal import Synchronization

/// A monotonic clock and scheduler that moves only when told to.
///
/// Timers scheduled on it run synchronously, in order, at their exact instants, inside
/// ``advance(by:)`` and ``advance(to:)``; ``perform(_:)`` runs work at once. A tracker
/// on a manual clock (``TrackerSimulation``) therefore processes every event as it is
/// recorded, and a test of a week of use runs in milliseconds. Any thread may call it: the
/// time is read without a lock (an engine reads it at every event), the rest under one.
///
/// ```swift
/// let sim = TrackerSimulation()
/// sim.tracker.screenAppeared("Lessons", id: ScreenInstance("lessons"))
/// sim.clock.advance(by: .minutes(30))
/// ```
public final class ManualClock: MonotonicClock, EngineScheduler {
  private struct State {
    var boot: String
    var timers = TimerQueue()
    var horizon: Int64?
  }

  private let state: Locked<State>
  /// The time now; written only under `state`'s lock.
  private let current: Atomic<Int64>

  /// Creates a clock at `start` in boot session `bootSession`.
  public init(start: MonotonicInstant = MonotonicInstant(nanoseconds: 0), bootSession: String = "manual-boot") {
    state = Locked(State(boot: bootSession))
    current = Atomic(start.nanoseconds)
  }

  public func now() -> MonotonicInstant { MonotonicInstant(nanoseconds: current.load(ordering: .acquiring)) }

  /// Moves the time to `instant` if it is later (under `state`'s lock).
  private func move(to instant: Int64) {
    if instant > current.load(ordering: .relaxed) { current.store(instant, ordering: .releasing) }
  }

  public var bootSession: String { state.withLock { $0.boot } }

  public var isSynchronous: Bool { true }

  /// The instant ``advance(to:)`` is moving to, while it runs the timers on the way.
  public var horizon: MonotonicInstant? { state.withLock { $0.horizon.map(MonotonicInstant.init(nanoseconds:)) } }

  /// Moves time forward by `duration`, running every timer due on the way.
  public func advance(by duration: Duration) {
    let (seconds, attoseconds) = duration.components
    let nanos = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    advance(to: MonotonicInstant(nanoseconds: now().nanoseconds + max(0, nanos)))
  }

  /// Moves time forward to `instant` (never backwards), running every timer due on the way.
  public func advance(to instant: MonotonicInstant) {
    let target = instant.nanoseconds
    // One lock when no timer is due (most calls): the horizon is set and restored in it.
    let (outer, first) = state.withLock { state -> (Int64?, TimerQueue.Timer?) in
      let outer = state.horizon
      guard let timer = state.timers.popDue(by: target) else {
        move(to: target)
        return (outer, nil)
      }
      state.horizon = target
      move(to: timer.at)
      return (outer, timer)
    }
    var due = first
    while let timer = due {
      timer.work()
      due = state.withLock { state -> TimerQueue.Timer? in
        guard let timer = state.timers.popDue(by: target) else {
          move(to: target)
          state.horizon = outer
          return nil
        }
        move(to: timer.at)
        return timer
      }
    }
  }

  /// Simulates a reboot: the monotonic timeline restarts at `start` in a new boot session,
  /// and pending timers are dropped.
  public func reboot(bootSession: String, start: MonotonicInstant = MonotonicInstant(nanoseconds: 0)) {
    state.withLock {
      $0.boot = bootSession
      current.store(start.nanoseconds, ordering: .releasing)
      $0.timers.removeAll()
    }
  }

  package func schedule(at deadline: MonotonicInstant, _ work: @escaping @Sendable () -> Void)
    -> any ScheduledWork
  {
    let id = state.withLock { $0.timers.schedule(at: deadline.nanoseconds, work) }
    return Cancel(clock: self, id: id)
  }

  public func perform(_ work: @escaping @Sendable () -> Void) { work() }

  /// How many timers are waiting.
  public var pendingTimers: Int { state.withLock { $0.timers.count } }

  private struct Cancel: ScheduledWork {
    let clock: ManualClock
    let id: Int
    func cancel() { clock.state.withLock { $0.timers.cancel(id) } }
  }
}
