/// Hands unlocks, notifications and commit errors to the host's handlers, in order, only
/// once no lock of Dwell's is held.
///
/// Work that produces an announcement queues it under whatever lock it holds
/// (``enqueue(_:)``), and calls ``deliver()`` after releasing every lock. One thread
/// delivers at a time and drains the queue, so announcements keep their order; a handler
/// that calls back into the engine (`commit()`, `setRules`) only queues more, which the
/// same loop delivers after it returns: nothing waits on a lock a handler holds.
final class Announcer: Sendable {
  enum Item {
    case unlock(UnlockRecord)
    case notification(UsageNotification)
    case error(any Error)
  }

  private struct Handlers {
    var unlock: [@Sendable (UnlockRecord) -> Void] = []
    var notification: [@Sendable (UsageNotification) -> Void] = []
    var error: [@Sendable (any Error) -> Void] = []
  }

  private struct State {
    var handlers = Handlers()
    var queue: [Item] = []
    var delivering = false
  }

  private let state = Locked<State>(State())

  func onUnlock(_ handler: @escaping @Sendable (UnlockRecord) -> Void) {
    state.withLock { $0.handlers.unlock.append(handler) }
  }

  func onNotification(_ handler: @escaping @Sendable (UsageNotification) -> Void) {
    state.withLock { $0.handlers.notification.append(handler) }
  }

  func onError(_ handler: @escaping @Sendable (any Error) -> Void) {
    state.withLock { $0.handlers.error.append(handler) }
  }

  /// Queues announcements; safe under any other lock (this one is taken last and briefly).
  func enqueue(_ items: [Item]) {
    guard !items.isEmpty else { return }
    state.withLock { $0.queue += items }
  }

  /// Delivers everything queued, unless another thread is delivering (it will). Call with
  /// no lock held.
  func deliver() {
    while true {
      let taken = state.withLock { state -> ([Item], Handlers)? in
        guard !state.delivering, !state.queue.isEmpty else { return nil }
        state.delivering = true
        defer { state.queue.removeAll() }
        return (state.queue, state.handlers)
      }
      guard let (items, handlers) = taken else { return }
      for item in items {
        switch item {
        case .unlock(let record): for handler in handlers.unlock { handler(record) }
        case .notification(let note): for handler in handlers.notification { handler(note) }
        case .error(let error): for handler in handlers.error { handler(error) }
        }
      }
      state.withLock { $0.delivering = false }
    }
  }
}
