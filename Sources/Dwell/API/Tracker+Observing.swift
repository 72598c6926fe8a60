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
  /// of Dwell's held (so it may call back into the tracker).
  ///
  /// Thread: the one that persisted the unlock, never the main thread by Dwell's choice
  /// (hop to the main actor to touch UI). That is one of Dwell's background queues (its
  /// checkpoint timer, the store opening), or the thread of a call that commits
  /// (``terminate()``, ``export(_:to:)``, ``erase()``, the `background` event); on a manual
  /// clock, the thread that advanced the clock, before that call returns. One unlock is
  /// delivered at a time: handlers never run concurrently with each other.
  ///
  /// ```swift
  /// tracker.onUnlock { print("unlocked \($0.title ?? $0.rule)") }
  /// ```
  public func onUnlock(_ handler: @escaping @Sendable (UnlockRecord) -> Void) {
    streams.withLock { $0.unlockHandlers.append(handler) }
  }

  /// Calls `handler` for every notification a plugin posts, once, in order, after what
  /// came before it is persisted, with no lock of Dwell's held, on the same threads as
  /// ``onUnlock(_:)``.
  public func onNotification(_ handler: @escaping @Sendable (UsageNotification) -> Void) {
    streams.withLock { $0.notificationHandlers.append(handler) }
  }

  /// Calls `handler` for every problem Dwell meets and handles, with no lock of Dwell's
  /// held (so it may call back into the tracker).
  ///
  /// Threads: if a problem was already reported, the latest one is passed to `handler`
  /// synchronously, on the thread calling `onProblem`, before it returns (on the main
  /// thread if you register there). Later problems run synchronously on the thread that
  /// met them: the background queue opening the store (``TrackerProblem/storeUnavailable(_:)``,
  /// ``TrackerProblem/storeMovedAside(_:)``, ``TrackerProblem/storeFromNewerVersion(_:)``),
  /// the thread that committed (``TrackerProblem/commitFailed(_:)``), the caller of
  /// ``setRules(_:pack:)`` or ``installRulePack(_:signature:)``, or the rules directory's
  /// watcher queue (``TrackerProblem/rulesRefused(_:)``), the caller of ``init(configuration:)``
  /// or ``configureShared(_:)`` (``TrackerProblem/invalidConfiguration(_:)``,
  /// ``TrackerProblem/configuredTooLate``; a pack's rule left out for a Swift rule's id, as
  /// ``TrackerProblem/invalidConfiguration(_:)``, on the queue that loaded the pack).
  /// Problems met at once on several threads may
  /// reach handlers concurrently.
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
