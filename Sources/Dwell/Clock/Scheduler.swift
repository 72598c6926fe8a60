package import Dispatch

/// A scheduled piece of work that can be cancelled.
package protocol ScheduledWork: Sendable {
  /// Cancels the work if it has not started yet.
  func cancel()
}

/// Runs the engine's background work: timers at monotonic instants, and work to do soon.
///
/// The engine never starts threads or tasks itself; it asks its scheduler. Production code
/// uses ``DispatchScheduler`` (one serial queue); tests use `DwellTesting.ManualClock`,
/// which runs timers synchronously, at their exact instants, when the test advances time.
package protocol EngineScheduler: Sendable {
  /// Runs `work` at `deadline` on the scheduler's serial context.
  func schedule(at deadline: MonotonicInstant, _ work: @escaping @Sendable () -> Void)
    -> any ScheduledWork
  /// Runs `work` soon, in order with other work, on the scheduler's serial context.
  func perform(_ work: @escaping @Sendable () -> Void)
  /// Whether ``perform(_:)`` runs work immediately on the calling thread. A synchronous
  /// scheduler lets the engine process every event as it is recorded (tests, replay).
  var isSynchronous: Bool { get }
  /// While the scheduler runs timers on its way to an instant it already knows (a manual
  /// clock jumping forward), that instant; `nil` for real time. Nothing is recorded before
  /// the horizon, so the engine makes one periodic checkpoint in the last interval before
  /// it instead of one every interval: a replay of ten idle-free days costs the same as a
  /// replay of ten minutes, and a crash at the horizon still loses less than one interval.
  var horizon: MonotonicInstant? { get }
  /// Runs `work` on the scheduler's serial context and returns when it is done; runs it
  /// at once when called from that context. `record(.background)` waits this way for the
  /// journal write, so nothing is lost if the app is suspended right after.
  func performAndWait(_ work: () -> Void)
}

extension EngineScheduler {
  /// Real time has no horizon.
  package var horizon: MonotonicInstant? { nil }

  /// Runs `work` on the calling thread (a synchronous scheduler's context is the caller's).
  package func performAndWait(_ work: () -> Void) { work() }
}

/// The production scheduler: a serial dispatch queue with timers measured on a monotonic clock.
package final class DispatchScheduler: EngineScheduler {
  /// The queue all engine work runs on.
  package let queue: DispatchQueue
  private let clock: any MonotonicClock

  /// Creates a scheduler on a new serial utility queue.
  package init(clock: any MonotonicClock, label: String = "dwell.engine") {
    self.clock = clock
    self.queue = DispatchQueue(label: label, qos: .utility)
    queue.setSpecific(key: Self.onQueue.key, value: ObjectIdentifier(self))
  }

  /// Marks the scheduler's queue, so work already on it is not made to wait for itself.
  private static let onQueue = QueueKey()

  package func performAndWait(_ work: () -> Void) {
    if DispatchQueue.getSpecific(key: Self.onQueue.key) == ObjectIdentifier(self) {
      work()
    } else {
      queue.sync(execute: work)
    }
  }

  package var isSynchronous: Bool { false }

  package func schedule(at deadline: MonotonicInstant, _ work: @escaping @Sendable () -> Void)
    -> any ScheduledWork
  {
    let delay = max(0, deadline.nanoseconds - clock.now().nanoseconds)
    let item = DispatchWorkItem(block: work)
    queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: delay)), execute: item)
    return DispatchScheduled(item: item)
  }

  package func perform(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }
}

private struct DispatchScheduled: ScheduledWork, @unchecked Sendable {
  // DispatchWorkItem is thread-safe; it is not marked Sendable on every platform.
  let item: DispatchWorkItem
  func cancel() { item.cancel() }
}

private struct QueueKey: @unchecked Sendable {
  // DispatchSpecificKey is immutable after creation; it is not marked Sendable.
  let key = DispatchSpecificKey<ObjectIdentifier>()
}
