// The engine's scheduler on a Dispatch queue, as apps run it.
package import Dispatch

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
