internal import Foundation

/// Dwell for an app: track screens and features, ask how long, and unlock things.
///
/// A tracker returns at once; the store opens on a background queue and events recorded
/// meanwhile are kept with their times. Recording is safe from any thread and costs well
/// under a microsecond; queries (``UsageQueries``) answer from memory. Nothing a tracker
/// is given (a configuration, rules, a damaged store) makes it trap: problems arrive on
/// ``problems()`` and the app keeps running.
///
/// ```swift
/// let tracker = Tracker.shared
/// tracker.screenAppeared("Lessons", id: ScreenInstance(ObjectIdentifier(self)))
/// let today = tracker.time(.screen("Lessons"), in: .today)
/// if tracker.isUnlocked("bonus-level") { showBonus() }
/// for await unlock in tracker.unlocks() { celebrate(unlock.rule) }
/// ```
public final class Tracker: Sendable {
  /// The configuration in force: the one it was created with, repaired, or, for the shared
  /// tracker ``shared`` made, the one a later ``configureShared(_:)`` gave it.
  package var configuration: Configuration { settings.withLock { $0 } }
  let settings: Locked<Configuration>
  /// The shared tracker's configuration came late (``configureShared(_:)`` after
  /// ``shared``) and its store is still to be adopted, once an engine is installed.
  let adoptionPending = Locked<Bool>(false)
  let clock: any MonotonicClock
  let wallClock: any WallClock
  let scheduler: (any EngineScheduler)?
  let launchedAt: MonotonicInstant
  let phase = Locked<Phase>(.opening(OpeningEvents()))
  /// The store file that holds the user's history but could not be used (unopenable,
  /// unreadable, from a newer Dwell), and why, while Dwell counts in memory: `erase()`
  /// and `export(_:to:)` throw while it holds data, `retryStore()` tries it again.
  let unusedStore = Locked<(path: String, reason: String)?>(nil)
  /// The configured store file, once known (`nil` for in-memory): `erase()` removes the
  /// damaged stores moved aside beside it.
  let storeFile = Locked<String?>(nil)
  /// An erase or a store retry is replacing the engine (``replacingEngine(_:)``).
  let replacing = Locked<Bool>(false)
  let streams = Locked<Streams>(Streams())
  /// The rules, pack, listeners and host values in force (``setRules(_:pack:)``).
  let live: RulesInForce
  /// The watch on the configuration's rule pack source (`rulesDirectory`).
  let watch = Locked<(any RulePackWatch)?>(nil)
  /// The version of the installed pack in force (``installRulePack(_:signature:)`` or the
  /// saved one loaded at launch), `nil` while none is: the rules directory's pack is then
  /// in force, and its reloads replace it.
  let installedPackVersion = Locked<Int?>(nil)
  /// The rules whose unlocks were marked seen, read once per engine (``unseenUnlocks()``).
  let seen = Locked<(engine: ObjectIdentifier, rules: Set<String>)?>(nil)

  enum Phase {
    case opening(OpeningEvents)
    /// The engine, and the same unretained: the hot path uses it under the phase lock,
    /// while this case keeps it alive, without retaining and releasing it (``ready(_:)``).
    case running(Engine, Unmanaged<Engine>)

    /// Running `engine`.
    static func ready(_ engine: Engine) -> Phase { .running(engine, .passUnretained(engine)) }
  }

  struct Streams {
    var unlocks: [UUID: AsyncStream<UnlockRecord>.Continuation] = [:]
    var notifications: [UUID: AsyncStream<UsageNotification>.Continuation] = [:]
    var problems: [UUID: AsyncStream<TrackerProblem>.Continuation] = [:]
    var problemHandlers: [@Sendable (TrackerProblem) -> Void] = []
    var unlockHandlers: [@Sendable (UnlockRecord) -> Void] = []
    var notificationHandlers: [@Sendable (UsageNotification) -> Void] = []
    var readyWaiters: [CheckedContinuation<Void, Never>] = []
    var lastProblem: TrackerProblem?
  }

  // MARK: Setting up

  /// Where the shared tracker is kept, and whether `configureShared` made it.
  package typealias SharedSlot = Locked<(tracker: Tracker, configured: Bool)?>

  /// How the shared tracker is made from a configuration (tests make it on a manual clock).
  package typealias Maker = @Sendable (Configuration) -> Tracker

  private static let sharedTracker = SharedSlot(nil)

  /// The shared tracker. Configure it once, early (in `application(_:didFinishLaunching...)`
  /// or the `App` initializer), with ``configureShared(_:)``; otherwise it starts with the
  /// default configuration on first use.
  public static var shared: Tracker { shared(in: sharedTracker) }

  /// ``shared``, kept in `slot`, made with `defaults` by `make` (tests pass their own).
  package static func shared(
    in slot: SharedSlot, defaults: Configuration = Configuration(),
    make: Maker = { Tracker(configuration: $0) }
  ) -> Tracker {
    slot.withLock { shared in
      if let shared { return shared.tracker }
      let tracker = make(defaults)
      shared = (tracker, false)
      return tracker
    }
  }

  /// Configures the shared tracker. Call once, before using ``shared``. A later call
  /// makes no second tracker: it returns the tracker already made and reports
  /// ``TrackerProblem/configuredTooLate``.
  ///
  /// When ``shared`` came first (it started with the default configuration), the shared
  /// tracker takes `configuration` then: its rules, settings and store. What it counted in
  /// the default store (this run, and any earlier run that was never configured) moves into
  /// the configured store, in one transaction, and the default store is emptied, so the
  /// user's history is never split between two files and nothing is counted twice; the
  /// screens visible go on counting, with no new session or visit. If the configured store
  /// cannot be opened, counting goes on where it was and that is reported too.
  /// After an earlier `configureShared`, the first configuration stays and the later one is
  /// not used. Either way, call `configureShared` before anything asks for ``shared``
  /// (`DwellUIKit.start()` uses it by default).
  @discardableResult
  public static func configureShared(_ configuration: Configuration) -> Tracker {
    configureShared(configuration, in: sharedTracker)
  }

  /// ``configureShared(_:)``, kept in `slot`, made by `make` (tests pass their own).
  @discardableResult
  package static func configureShared(
    _ configuration: Configuration, in slot: SharedSlot, make: Maker = { Tracker(configuration: $0) }
  ) -> Tracker {
    let (tracker, late, adopts) = slot.withLock { shared -> (Tracker, Bool, Bool) in
      if let made = shared {
        shared = (made.tracker, true)
        return (made.tracker, true, !made.configured)
      }
      let tracker = make(configuration)
      shared = (tracker, true)
      return (tracker, false, false)
    }
    if late { tracker.report(.configuredTooLate) }
    if adopts { tracker.adopt(configuration) }
    return tracker
  }

  /// Creates a tracker. Returns immediately; the store opens in the background. A
  /// configuration that does not validate is reported as
  /// ``TrackerProblem/invalidConfiguration(_:)``, and the tracker runs with its bad settings
  /// at their defaults and without its bad rules and levels (the good ones run; see
  /// ``Configuration/validate()``). (Tests: `DwellTesting.TrackerSimulation`
  /// makes one on a manual clock.)
  public convenience init(configuration: Configuration) {
    self.init(configuration: configuration, clock: SystemMonotonicClock(), wallClock: SystemWallClock())
  }

  /// Creates a tracker on the given clocks; the store opens at once on a synchronous
  /// scheduler such as `DwellTesting.ManualClock`.
  package init(
    configuration: Configuration, clock: any MonotonicClock, wallClock: any WallClock,
    scheduler: (any EngineScheduler)? = nil
  ) {
    // What validate() refuses runs at its default, reported once below (`repaired`).
    let repaired = configuration.repaired
    settings = Locked(repaired)
    self.clock = clock
    self.wallClock = wallClock
    self.scheduler = scheduler
    launchedAt = clock.now()
    // Repaired, the configuration's rules validate; an empty set is only a safety net.
    var set = RuleSet(rules: repaired.engine.rules, listeners: repaired.engine.listeners)
    set.levels = repaired.engine.levels
    live = (try? RulesInForce(set)) ?? RulesInForce()
    let problems = configuration.problems
    if !problems.isEmpty { report(.invalidConfiguration(ConfigurationError(problems: problems))) }
    if scheduler?.isSynchronous == true {
      open()
    } else {
      DispatchQueue.global(qos: .utility).async { [self] in open() }
    }
  }

  deinit { watch.withLock { $0?.cancel() } }

  /// The engine, once the store is open; `nil` before.
  package var engine: Engine? {
    phase.withLock { phase in
      if case .running(let engine, _) = phase { return engine }
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
  ///
  /// The event is stamped and appended under the phase lock, which keeps the engine alive
  /// for that long without retaining it; only an event the engine must act on (the app
  /// going to the background, say) takes the engine out of the lock. Lock order: the
  /// phase, then the engine's buffer.
  @inline(__always)
  public func record(_ event: LifecycleEvent) { enter(event) }

  /// ``record(_:)`` of an event the caller gives up: it moves into the engine's buffer
  /// without a copy (an appearance's screen name is retained once, by the buffer).
  @inline(__always)
  func enter(_ event: consuming LifecycleEvent) {
    let routine = Engine.isRoutine(event)
    let wakes = Engine.wakesWriter(event)
    let kept: LifecycleEvent? = routine ? nil : copy event
    var pending: LifecycleEvent? = consume event
    let engine = phase.withLock { phase -> (engine: Engine, waiting: Int, wanted: Bool)? in
      switch phase {
      case .running(_, let engine):
        // Guaranteed: `phase` holds the engine until the lock is released.
        return engine._withUnsafeGuaranteedRef { engine in
          let (waiting, wanted) = engine.stamp(&pending)
          let must = engine.mustRespond(routine: routine, waiting: waiting, wakes: wakes, wanted: wanted)
          return must ? (engine, waiting, wanted) : nil
        }
      case .opening(let events):
        if let event = pending.take() { events.append(event, at: clock.now()) }
        return nil
      }
    }
    if let engine { engine.engine.respond(to: kept, waiting: engine.waiting, wanted: engine.wanted) }
    if case .background? = kept { retryStandInSoon() }
  }

  /// A screen instance became visible (for screens the UIKit/SwiftUI adapters don't see).
  /// The engine cleans the name (``ScreenName/clean(_:)``) as it records it.
  package func screenAppeared(_ name: String, id: ScreenInstance) {
    enter(.appear(screen: name, id: id))
  }

  /// A screen instance stopped being visible.
  package func screenDisappeared(id: ScreenInstance) { enter(.disappear(id: id)) }

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
    let id = Self.measurement(feature)
    record(.appear(screen: ScreenName.clean(feature), id: id))
    defer { record(.disappear(id: id)) }
    return try body()
  }

  /// Times an asynchronous `body` as a feature.
  ///
  /// ```swift
  /// let data = try await tracker.measure("download") { try await session.data(from: url) }
  /// ```
  public func measure<T>(
    _ feature: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
  ) async rethrows -> T {
    let id = Self.measurement(feature)
    record(.appear(screen: ScreenName.clean(feature), id: id))
    defer { record(.disappear(id: id)) }
    return try await body()
  }

  /// Measurements so far, to give each `measure` call an instance of its own: nested or
  /// concurrent measurements of the same name each start and end their own visit (the
  /// time counts once while any is open, like two instances of a screen).
  private static let measurements = Locked<UInt64>(0)

  static func measurement(_ feature: String) -> ScreenInstance {
    let number = measurements.withLock {
      $0 &+= 1
      return $0
    }
    return ScreenInstance("measure:\(number):" + feature)
  }

  /// The user touched the app (for the idle timeout): `record(.interact)`, for the UIKit
  /// and SwiftUI adapters.
  package func interacted() { record(.interact) }

  /// Ends the process run cleanly (from `applicationWillTerminate`): records `terminate`
  /// and commits everything to the store before it returns. Disk I/O.
  public func terminate() {
    watch.withLock {
      $0?.cancel()
      $0 = nil
    }
    // A store locked by another process at launch gets a last, short try (its session is
    // in the journal beside it either way).
    retryStandIn(busyTimeout: 1_000)
    guard let engine else { return record(.terminate) }
    engine.terminate()
  }
}
