// The engine's scheduler on a Dispatch queue, as apps run it.
package import Dispatch

/// The production scheduler: a serial dispatch queue with timers measured on a monotonic clock.
package final class DispatchScheduler: EngineScheduler {
  /// The queue all engine work runs on.
  package let queue: DispatchQueue
  private let clock: any MonotonicClock
  /// Work items queued or running on the queue (timers count while they run): whether a
  /// caller of ``perform(waitingAtMost:ifIdle:_:)`` finds the queue busy. Held only to count.
  private let pending = Locked<Int>(0)

  /// Creates a scheduler on a new serial utility queue.
  package init(clock: any MonotonicClock, label: String = "dwell.engine") {
    self.clock = clock
    self.queue = DispatchQueue(label: label, qos: .utility)
    queue.setSpecific(key: Self.onQueue.key, value: ObjectIdentifier(self))
  }

  /// Marks the scheduler's queue, so work already on it is not made to wait for itself.
  private static let onQueue = QueueKey()

  /// Whether the caller runs on the queue.
  private var onQueue: Bool { DispatchQueue.getSpecific(key: Self.onQueue.key) == ObjectIdentifier(self) }

  package func performAndWait(_ work: () -> Void) {
    if onQueue {
      work()
    } else {
      queue.sync {
        pending.withLock { $0 += 1 }
        work()
        pending.withLock { $0 -= 1 }
      }
    }
  }

  package func perform(waitingAtMost busy: Int, ifIdle idle: Int, _ work: @escaping @Sendable () -> Void) -> Bool {
    if onQueue {
      work()
      return true
    }
    let wasBusy = pending.withLock { $0 > 0 }
    let done = DispatchSemaphore(value: 0)
    perform {
      work()
      done.signal()
    }
    return done.wait(timeout: .now() + .milliseconds(max(wasBusy ? busy : idle, 0))) == .success
  }

  package var isSynchronous: Bool { false }

  package func schedule(at deadline: MonotonicInstant, _ work: @escaping @Sendable () -> Void)
    -> any ScheduledWork
  {
    let delay = max(0, deadline.nanoseconds - clock.now().nanoseconds)
    let item = DispatchWorkItem { [pending] in
      pending.withLock { $0 += 1 }
      work()
      pending.withLock { $0 -= 1 }
    }
    queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: delay)), execute: item)
    return DispatchScheduled(item: item)
  }

  package func perform(_ work: @escaping @Sendable () -> Void) {
    pending.withLock { $0 += 1 }
    queue.async { [pending] in
      work()
      pending.withLock { $0 -= 1 }
    }
  }
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
