internal import Foundation

/// What a tracker tells the app: unlocks, plugins' notifications, and problems it handled.
extension Tracker {
  /// Unlocks, each delivered once, in order, after it is persisted.
  public func unlocks() -> AsyncStream<UnlockRecord> {
    let (stream, continuation) = AsyncStream<UnlockRecord>.makeStream()
    let id = UUID()
    streams.withLock { $0.unlocks[id] = continuation }
    continuation.onTermination = { [weak self] _ in self?.streams.withLock { _ = $0.unlocks.removeValue(forKey: id) } }
    return stream
  }

  /// Notifications that plugins post.
  public func notifications() -> AsyncStream<UsageNotification> {
    let (stream, continuation) = AsyncStream<UsageNotification>.makeStream()
    let id = UUID()
    streams.withLock { $0.notifications[id] = continuation }
    continuation.onTermination = { [weak self] _ in
      self?.streams.withLock { _ = $0.notifications.removeValue(forKey: id) }
    }
    return stream
  }

  /// Problems Dwell met and handled (a store it could not open, a failed commit, rules it
  /// refused).
  public func problems() -> AsyncStream<TrackerProblem> {
    let (stream, continuation) = AsyncStream<TrackerProblem>.makeStream()
    let id = UUID()
    let last = streams.withLock { streams -> TrackerProblem? in
      streams.problems[id] = continuation
      return streams.lastProblem
    }
    if let last { continuation.yield(last) }
    continuation.onTermination = { [weak self] _ in self?.streams.withLock { _ = $0.problems.removeValue(forKey: id) } }
    return stream
  }

  /// Calls `handler` for every unlock, once, in order, after it is persisted, with no lock
  /// of Dwell's held (so it may call back into the tracker). On a manual clock it runs
  /// before the call that caused the unlock returns.
  ///
  /// ```swift
  /// tracker.onUnlock { print("unlocked \($0.title ?? $0.rule)") }
  /// ```
  public func onUnlock(_ handler: @escaping @Sendable (UnlockRecord) -> Void) {
    streams.withLock { $0.unlockHandlers.append(handler) }
  }

  /// Calls `handler` for every notification a plugin posts, once, in order, after what
  /// came before it is persisted, with no lock of Dwell's held.
  public func onNotification(_ handler: @escaping @Sendable (UsageNotification) -> Void) {
    streams.withLock { $0.notificationHandlers.append(handler) }
  }

  /// Calls `handler` for every problem Dwell meets and handles (and for the latest one, at
  /// once), with no lock of Dwell's held.
  public func onProblem(_ handler: @escaping @Sendable (TrackerProblem) -> Void) {
    let last = streams.withLock { streams -> TrackerProblem? in
      streams.problemHandlers.append(handler)
      return streams.lastProblem
    }
    if let last { handler(last) }
  }

  /// The latest problem, if any.
  package var lastProblem: TrackerProblem? { streams.withLock { $0.lastProblem } }

  func report(_ problem: TrackerProblem) {
    let handlers = streams.withLock { streams in
      streams.lastProblem = problem
      for continuation in streams.problems.values { continuation.yield(problem) }
      return streams.problemHandlers
    }
    for handler in handlers { handler(problem) }
  }

  /// Passes an engine's announcements to the streams.
  func observe(_ engine: Engine) {
    engine.onUnlock { [weak self] record in
      let handlers = self?.streams.withLock { streams in
        for continuation in streams.unlocks.values { continuation.yield(record) }
        return streams.unlockHandlers
      }
      for handler in handlers ?? [] { handler(record) }
    }
    engine.onNotification { [weak self] note in
      let handlers = self?.streams.withLock { streams in
        for continuation in streams.notifications.values { continuation.yield(note) }
        return streams.notificationHandlers
      }
      for handler in handlers ?? [] { handler(note) }
    }
    engine.onError { [weak self] error in self?.report(.commitFailed("\(error)")) }
  }
}
