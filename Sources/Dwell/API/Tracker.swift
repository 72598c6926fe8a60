internal import Foundation

/// Dwell for an app: track screens and features, ask how long, and unlock things.
///
/// A tracker returns at once; the store opens on a background queue and events recorded
/// meanwhile are kept with their times. Recording is safe from any thread and costs well
/// under a microsecond; queries answer from memory.
///
/// ```swift
/// let tracker = Tracker.shared
/// tracker.screenAppeared("Lessons", id: ScreenInstance(ObjectIdentifier(self)))
/// let today = tracker.time(.screen("Lessons"), in: .today)
/// if tracker.isUnlocked("bonus-level") { showBonus() }
/// for await unlock in tracker.unlocks() { celebrate(unlock.rule) }
/// ```
public final class Tracker: Sendable {
  /// The configuration it was created with.
  public let configuration: Configuration
  private let clock: any MonotonicClock
  private let wallClock: any WallClock
  private let scheduler: (any EngineScheduler)?
  private let launchedAt: MonotonicInstant
  private let phase = Locked<Phase>(.opening([]))
  /// The store file that could not be opened, while Dwell counts in memory.
  private let unavailablePath = Locked<String?>(nil)
  private let streams = Locked<Streams>(Streams())

  private enum Phase {
    case opening([(MonotonicInstant, LifecycleEvent)])
    case ready(Engine)
  }

  private struct Streams {
    var unlocks: [UUID: AsyncStream<UnlockRecord>.Continuation] = [:]
    var notifications: [UUID: AsyncStream<UsageNotification>.Continuation] = [:]
    var problems: [UUID: AsyncStream<TrackerProblem>.Continuation] = [:]
    var problemHandlers: [@Sendable (TrackerProblem) -> Void] = []
    var readyWaiters: [CheckedContinuation<Void, Never>] = []
    var lastProblem: TrackerProblem?
  }

  // MARK: Setting up

  private static let sharedTracker = Locked<Tracker?>(nil)

  /// The shared tracker. Configure it once, early (in `application(_:didFinishLaunching...)`
  /// or the `App` initializer), with ``configureShared(_:)``; otherwise it starts with the
  /// default configuration on first use.
  public static var shared: Tracker {
    sharedTracker.withLock { shared in
      if let shared { return shared }
      let tracker = Tracker(configuration: Configuration())
      shared = tracker
      return tracker
    }
  }

  /// Configures the shared tracker. Call once, before using ``shared``; later calls are ignored.
  @discardableResult
  public static func configureShared(_ configuration: Configuration) -> Tracker {
    sharedTracker.withLock { shared in
      if let shared { return shared }
      let tracker = Tracker(configuration: configuration)
      shared = tracker
      return tracker
    }
  }

  /// Creates a tracker. Returns immediately; the store opens in the background (or at once
  /// on a synchronous scheduler such as `DwellTesting.ManualClock`).
  public init(
    configuration: Configuration, clock: any MonotonicClock = SystemMonotonicClock(),
    wallClock: any WallClock = SystemWallClock(), scheduler: (any EngineScheduler)? = nil
  ) {
    self.configuration = configuration
    self.clock = clock
    self.wallClock = wallClock
    self.scheduler = scheduler
    launchedAt = clock.now()
    if scheduler?.isSynchronous == true {
      open()
    } else {
      DispatchQueue.global(qos: .utility).async { [self] in open() }
    }
  }

  private func open() {
    let engine = makeEngine()
    let waiting = phase.withLock { phase -> [(MonotonicInstant, LifecycleEvent)] in
      guard case .opening(let events) = phase else { return [] }
      phase = .ready(engine)
      return events
    }
    for (instant, event) in waiting { engine.record(event, at: instant) }
    let waiters = streams.withLock { streams -> [CheckedContinuation<Void, Never>] in
      defer { streams.readyWaiters.removeAll() }
      return streams.readyWaiters
    }
    for waiter in waiters { waiter.resume() }
    scheduleRetry()
  }

  // MARK: Retrying an unavailable store

  private func scheduleRetry() {
    guard unavailablePath.withLock({ $0 }) != nil, scheduler?.isSynchronous != true else { return }
    DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + 60) { [weak self] in
      guard let self, !self.retryStore() else { return }
      self.scheduleRetry()
    }
  }

  /// While Dwell counts in memory because the store could not be opened (read-only, disk
  /// full, missing folder), tries to open it again; on success everything counted in
  /// memory moves into it and counting goes on there. Dwell retries every minute by
  /// itself; call this after fixing the cause to retry now.
  ///
  /// - Returns: `true` when the store is in use (now or already), `false` if it still fails.
  @discardableResult
  public func retryStore() -> Bool {
    guard let path = unavailablePath.withLock({ $0 }) else { return true }
    guard let old = engine, let store = try? Store(path: path) else { return false }
    // Buffer new events while the counts move.
    phase.withLock { $0 = .opening([]) }
    let fresh: Engine
    do {
      try old.commit()
      let live = old.liveState()
      try store.fold(try CheckpointBatch(moving: old.store), journal: nil, sequence: 0)
      old.abandon()
      fresh = try engine(on: store)
      fresh.adopt(active: live.active, visible: live.visible)
    } catch {
      phase.withLock { $0 = .ready(old) }
      report(.storeUnavailable("retry failed: \(error)"))
      return false
    }
    let waiting = phase.withLock { phase -> [(MonotonicInstant, LifecycleEvent)] in
      defer { phase = .ready(fresh) }
      if case .opening(let events) = phase { return events }
      return []
    }
    for (instant, event) in waiting { fresh.record(event, at: instant) }
    unavailablePath.withLock { $0 = nil }
    return true
  }

  /// Opens the configured store; on failure, moves a damaged file aside or falls back to
  /// memory, and reports the problem. Never throws, never crashes.
  private func makeEngine() -> Engine {
    var path: String?
    do {
      path = try configuration.storePath()
    } catch let problem as TrackerProblem {
      report(problem)
    } catch {
      report(.storeUnavailable("\(error)"))
    }
    if let path {
      do {
        return try engine(on: Store(path: path))
      } catch StoreError.newerSchema(let migration) {
        report(.storeFromNewerVersion("migration \(migration)"))
      } catch StoreError.database(let error) where error.isCorruption {
        let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
        do {
          try FileManager.default.moveItem(atPath: path, toPath: aside)
          for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
          report(.storeMovedAside(aside))
          if let engine = try? engine(on: Store(path: path)) { return engine }
        } catch {
          report(.storeUnavailable("the store is damaged and cannot be moved aside: \(error)"))
        }
      } catch {
        report(.storeUnavailable("\(error)"))
        unavailablePath.withLock { $0 = path }
      }
    }
    do {
      return try engine(on: Store(path: ":memory:"))
    } catch {
      // An in-memory database only fails when memory is exhausted; rules were validated.
      preconditionFailure("Dwell cannot create an in-memory store: \(error)")
    }
  }

  private func engine(on store: Store) throws -> Engine {
    if let retention = configuration.visitRetention {
      let cutoff = wallClock.now().nanosecondsSince1970 - retention.nanoseconds
      _ = try? store.pruneVisits(endedBefore: WallInstant(nanosecondsSince1970: cutoff))
    }
    let engine = try Engine(
      store: store, configuration: configuration.engine, clock: clock, wallClock: wallClock, scheduler: scheduler,
      launchedAt: launchedAt)
    engine.onUnlock { [weak self] record in
      self?.streams.withLock { streams in for continuation in streams.unlocks.values { continuation.yield(record) } }
    }
    engine.onNotification { [weak self] note in
      self?.streams.withLock { streams in for continuation in streams.notifications.values { continuation.yield(note) }
      }
    }
    engine.onError { [weak self] error in self?.report(.commitFailed("\(error)")) }
    return engine
  }

  private func report(_ problem: TrackerProblem) {
    let handlers = streams.withLock { streams in
      streams.lastProblem = problem
      for continuation in streams.problems.values { continuation.yield(problem) }
      return streams.problemHandlers
    }
    for handler in handlers { handler(problem) }
  }

  /// The engine, once the store is open; `nil` before.
  public var engine: Engine? {
    phase.withLock { phase in
      if case .ready(let engine) = phase { return engine }
      return nil
    }
  }

  /// Waits until the store is open (events recorded before are already kept).
  public func ready() async {
    if engine != nil { return }
    await withCheckedContinuation { continuation in
      let waiting = streams.withLock { streams -> Bool in
        guard engine == nil else { return false }
        streams.readyWaiters.append(continuation)
        return true
      }
      if !waiting { continuation.resume() }
    }
  }

  // MARK: Recording (hot path)

  /// Records a lifecycle event now. Any thread; well under a microsecond; no I/O.
  @inline(__always)
  public func record(_ event: LifecycleEvent) {
    let engine = phase.withLock { phase -> Engine? in
      switch phase {
      case .ready(let engine): return engine
      case .opening(var events):
        events.append((clock.now(), event))
        phase = .opening(events)
        return nil
      }
    }
    engine?.record(event)
  }

  /// A screen instance became visible (for screens the UIKit/SwiftUI adapters don't see).
  public func screenAppeared(_ name: String, id: ScreenInstance) {
    record(.appear(screen: ScreenName.clean(name), id: id))
  }

  /// A screen instance stopped being visible.
  public func screenDisappeared(id: ScreenInstance) { record(.disappear(id: id)) }

  /// Starts a feature timer that is not a screen ("video playing"). It accrues like a
  /// screen, while the app is active, and is queried as `.screen(name)`.
  public func beginFeature(_ name: String) {
    record(.appear(screen: ScreenName.clean(name), id: ScreenInstance("feature:" + name)))
  }

  /// Ends a feature timer.
  public func endFeature(_ name: String) { record(.disappear(id: ScreenInstance("feature:" + name))) }

  /// Times `body` as a feature.
  ///
  /// ```swift
  /// try tracker.measure("export") { try exporter.run() }
  /// ```
  public func measure<T>(_ feature: String, _ body: () throws -> T) rethrows -> T {
    beginFeature(feature)
    defer { endFeature(feature) }
    return try body()
  }

  /// The user touched the app (for the idle timeout).
  public func interacted() { record(.interact) }

  // MARK: Observing

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

  /// Problems Dwell met and handled (a store it could not open, a failed commit).
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

  /// Calls `handler` for every problem Dwell meets and handles (and for the latest one, at once).
  public func onProblem(_ handler: @escaping @Sendable (TrackerProblem) -> Void) {
    let last = streams.withLock { streams -> TrackerProblem? in
      streams.problemHandlers.append(handler)
      return streams.lastProblem
    }
    if let last { handler(last) }
  }

  /// The latest problem, if any.
  public var lastProblem: TrackerProblem? { streams.withLock { $0.lastProblem } }

  // MARK: Privacy

  /// Every visit, day total and unlock, as JSON or CSV. Commits first.
  ///
  /// - Throws: the store's error.
  public func export(_ format: ExportFormat) throws -> String {
    guard let engine else { return try Exporter(usage: .init(), visits: []).render(format) }
    try engine.commit()
    return try Exporter(store: engine.store).render(format)
  }

  /// Erases all usage data and starts counting afresh. Screens visible now count again
  /// from their next appearance.
  public func erase() throws {
    guard let engine else { return }
    let wasActive = engine.isActive
    engine.abandon()
    try engine.store.erase()
    let fresh = try self.engine(on: engine.store)
    phase.withLock { $0 = .ready(fresh) }
    if wasActive { fresh.record(.active) }
  }
}

/// Screen names from code nobody reviewed: trimmed, control characters removed, at most
/// 200 characters, never empty.
public enum ScreenName {
  /// The cleaned name.
  public static func clean(_ name: String) -> String {
    var result = String(name.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) })
      .trimmingCharacters(in: .whitespacesAndNewlines)
    if result.count > 200 { result = String(result.prefix(200)) }
    return result.isEmpty ? "Unnamed" : result
  }
}
