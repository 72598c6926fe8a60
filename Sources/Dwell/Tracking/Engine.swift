internal import Foundation

/// The tracking engine: turns lifecycle events into accrued time, visits, sessions, days
/// and unlocks, following <doc:Accounting>, and commits them to its store. Not public:
/// apps use a ``Tracker``, which makes and owns one once its store is open; tests, the CLI
/// and the other modules of the package use it directly. This file launches it and records
/// events (the hot path); committing and ending a run are in `Engine+Committing.swift`.
///
/// One engine lives for one process run: creating it is the launch, `terminate()` is a
/// clean exit, and an engine that simply stops (a crash) loses at most the checkpoint
/// interval. `record(_:)` is the hot path: a clock read and an append under an
/// uncontended lock, with no I/O. Everything else runs on the injected scheduler.
///
/// Threading: rules, scripted checks and listeners run where the engine processes events
/// (its scheduler's queue; `setRules`, `background`, `terminate` and a burst past
/// ``maximumWaitingEvents`` process on the caller's thread), under a lock that neither `record(_:)` nor a query takes:
/// queries answer from a copy the queue publishes after each step (``UsageQueries``), so a
/// slow script delays neither. Handlers given to ``onUnlock(_:)`` and
/// ``onNotification(_:)`` run after every lock of Dwell's is released, so they may call
/// back into the tracker (``Tracker/setRules(_:pack:)``, say).
package final class Engine: Sendable {
  /// The configuration the engine was created with.
  package let configuration: Configuration
  /// The store the engine commits to.
  package let store: Store
  let clock: any MonotonicClock
  let scheduler: any EngineScheduler
  /// `scheduler.isSynchronous`, read once: the hot path avoids the existential call.
  let synchronous: Bool
  /// The system clock, when that is the clock: the hot path reads it without an existential call.
  private let systemClock: SystemMonotonicClock?
  /// Whether the engine keeps everything in memory (no store, journal or checkpoints).
  let inMemory: Bool
  let buffer = EventBuffer()
  let state: Locked<EngineState>
  /// What queries read; see ``PublishedState``. Lock order: `state`, then `published`,
  /// then the buffer's.
  let published: Locked<PublishedState>
  let pipeline: CommitPipeline
  let announcer = Announcer()

  /// Launches an engine on `store`: loads what was committed (recovering from a crash if
  /// the last run did not end cleanly) and starts counting.
  ///
  /// - Parameters:
  ///   - store: the store to load from and commit to.
  ///   - configuration: timeouts, checkpoint interval, rules, levels, listeners.
  ///   - clock: the monotonic clock for durations.
  ///   - wallClock: the wall clock and time zone, which only name days.
  ///   - scheduler: where timers and background work run (a serial queue by default).
  ///   - launchedAt: when the process started, if before now (the store was opened in the
  ///     background); events recorded meanwhile are fed with ``record(_:at:)``.
  /// - Throws: ``StoreError`` when the store cannot be read; ``RuleError`` for invalid rules.
  package convenience init(
    store: Store, configuration: Configuration = Configuration(),
    clock: any MonotonicClock = SystemMonotonicClock(), wallClock: any WallClock = SystemWallClock(),
    scheduler: (any EngineScheduler)? = nil, launchedAt: MonotonicInstant? = nil
  ) throws {
    try self.init(
      store: store, inMemory: false, configuration: configuration, clock: clock, wallClock: wallClock,
      scheduler: scheduler, launchedAt: launchedAt)
  }

  /// Launches an engine that keeps everything in memory, for simulations (`dwell balance`):
  /// it starts from nothing, never reads or writes a store or a journal, makes no
  /// checkpoints, and announces unlocks and notifications as soon as they happen. What it
  /// counts is dropped when it goes. Its ``store`` is an empty in-memory placeholder.
  ///
  /// - Throws: ``RuleError`` for invalid rules; ``StoreError`` if SQLite cannot make the placeholder.
  package convenience init(
    inMemory configuration: Configuration, clock: any MonotonicClock, wallClock: any WallClock,
    scheduler: any EngineScheduler
  ) throws {
    guard let placeholder = Store.placeholder else {
      throw StoreError.database(DatabaseError(.cannotOpen, message: "cannot open an in-memory SQLite database"))
    }
    try self.init(
      store: placeholder, inMemory: true, configuration: configuration, clock: clock, wallClock: wallClock,
      scheduler: scheduler, launchedAt: nil)
  }

  private init(
    store: Store, inMemory: Bool, configuration: Configuration, clock: any MonotonicClock,
    wallClock: any WallClock, scheduler: (any EngineScheduler)?, launchedAt: MonotonicInstant?
  ) throws {
    var given = RuleSet(rules: configuration.rules)  // a configuration made by hand
    given.levels = configuration.levels
    try given.validate()
    self.configuration = configuration
    self.store = store
    self.inMemory = inMemory
    self.clock = clock
    self.scheduler = scheduler ?? DispatchScheduler(clock: clock)
    synchronous = self.scheduler.isSynchronous
    systemClock = clock as? SystemMonotonicClock
    var restored = RestoredUsage()
    if !inMemory {
      try store.recoverJournals(currentBoot: clock.bootSession)
      restored = try store.load()
    }
    // The launch may precede the engine (the store opened in the background): the wall
    // clock at the launch is the wall clock now, minus the time since.
    let current = clock.now().nanoseconds
    let now = min(launchedAt?.nanoseconds ?? current, current)
    let wallNow = wallClock.now()
    let launchWall = WallInstant(nanosecondsSince1970: wallNow.nanosecondsSince1970 - (current - now))
    var accountant = Accountant(
      now: now, wall: launchWall, timeZone: wallClock.timeZone, boot: clock.bootSession,
      idleTimeout: configuration.idleTimeout.map(\.nanoseconds),
      sessionTimeout: configuration.sessionTimeout.nanoseconds, restored: restored)
    accountant.collectsEvents = !configuration.listeners.isEmpty
    accountant.keepsPendingTotals = !inMemory
    let rules = configuration.rules.map(\.withCleanNames)
    accountant.measure(groups: rules.flatMap(\.condition.screenGroups))
    let book = RuleBook(
      rules: rules, unlocked: restored.unlocks, earnings: restored.earnings,
      tick: configuration.evaluationTick.nanoseconds,
      wantsTicks: configuration.listeners.contains { $0.wantsTicks }, levels: configuration.levels,
      accountant: accountant)
    buffer.setInterest(book.interest)
    state = Locked(EngineState(accountant: accountant, book: book, lastFold: now, listeners: configuration.listeners))
    published = Locked(PublishedState(accountant: accountant, book: book))
    pipeline = CommitPipeline(
      store: store, journaled: !inMemory, state: state, announcer: announcer, clock: clock,
      interval: configuration.checkpointInterval.nanoseconds,
      announced: Set((restored.unlocks + restored.earnings).map(\.announcementKey)))
    for listener in configuration.listeners { listener.restore(states: restored.listenerStates) }
  }

  // MARK: Recording (hot path)

  /// The most events that wait for the writer before the recording thread applies them
  /// itself: a burst (thousands of events in a few milliseconds) costs the recording
  /// thread what it costs the writer, and the events `background` must apply before it
  /// returns stay few (applied in about 2 ms). A person's events never come that fast.
  package static let maximumWaitingEvents = 2_048

  /// Events waiting at which the writer is asked to apply them (once per crossing).
  static let writerNudge = 512

  /// Events recorded but not yet applied (for tests).
  package var waitingEvents: Int { buffer.count }

  /// The most closed visits whose rows wait in memory for the writer; past it, visits still
  /// count in all totals but their individual rows (the `visits` table) are not kept.
  package static var maximumPendingVisitRecords: Int { Accountant.maximumPendingVisitRecords }

  /// Visits counted without their row, because the writer could not keep up (for tests).
  package var droppedVisitRecords: Int { state.withLock { $0.accountant.droppedVisitRecords } }

  /// Checkpoints made by the periodic timer so far (for tests).
  package var periodicCheckpoints: Int { state.withLock { $0.periodicCheckpoints } }

  /// Closed visits waiting in memory for the writer (for tests).
  package var pendingVisitRecords: Int { state.withLock { $0.accountant.pendingVisitCount } }

  /// Records an event now. Safe from any thread; costs a clock read and an append.
  ///
  /// - Complexity: O(1), no I/O, no allocation in steady state.
  @inline(__always)
  package func record(_ event: LifecycleEvent) {
    record(event, at: systemClock?.now() ?? clock.now())
  }

  /// Records an event that happened at `instant` (on this engine's clock), such as one
  /// buffered while the store was opening. Instants before the previous event's count as it.
  /// Screen names are cleaned here (``ScreenName/clean(_:)``), whatever recorded them.
  package func record(_ event: LifecycleEvent, at instant: MonotonicInstant) {
    let routine = Self.isRoutine(event)
    let wakes = Self.wakesWriter(event)
    var pending: LifecycleEvent? = event
    let (waiting, wanted) = append(&pending, at: instant)
    if mustRespond(routine: routine, waiting: waiting, wakes: wakes, wanted: wanted) {
      respond(to: routine ? nil : event, waiting: waiting, wanted: wanted)
    }
  }

  /// The hot path's first half: stamps the event in `pending` with the clock now and moves
  /// it into the buffer (``append(_:at:)``). Returns the number of events now waiting and
  /// whether the rules want it applied now (``EventBuffer/append(_:at:)``). A
  /// ``Tracker`` calls it under its phase lock, so that the engine stays alive without a retain.
  @inline(__always)
  func stamp(_ pending: inout LifecycleEvent?) -> (waiting: Int, wanted: Bool) {
    append(&pending, at: systemClock?.now() ?? clock.now())
  }

  /// Moves the event in `pending`, stamped `instant`, into the buffer (leaving `nil`), its
  /// screen name cleaned (``ScreenName/clean(_:)``; a clean name, the usual case, is
  /// checked, not copied). Returns the number of events now waiting, and whether the rules
  /// want it applied now.
  @inline(__always)
  func append(_ pending: inout LifecycleEvent?, at instant: MonotonicInstant) -> (waiting: Int, wanted: Bool) {
    if case .appear(let screen, let id)? = pending, !ScreenName.isClean(screen) {
      pending = .appear(screen: ScreenName.clean(screen), id: id)
    }
    return buffer.append(&pending, at: instant.nanoseconds)
  }

  /// Whether `event` is a screen event or a touch (most events): the writer applies those
  /// when it next runs, unless ``mustRespond(routine:waiting:)``.
  @inline(__always)
  static func isRoutine(_ event: LifecycleEvent) -> Bool {
    switch event {
    case .appear, .disappear, .pause, .resume, .interact, .action: return true
    case .active, .inactive, .background, .foreground, .clockChanged, .terminate: return false
    }
  }

  /// Whether `event` is an action: routine, but the first one into an empty buffer asks
  /// the writer to apply it (``respond(to:waiting:)``), so that an action recorded while
  /// nothing accrues (in the background: no checkpoint timer runs) is applied, and made
  /// durable by the checkpoint that follows, without waiting for another event.
  @inline(__always)
  static func wakesWriter(_ event: LifecycleEvent) -> Bool {
    if case .action = event { return true }
    return false
  }

  /// The hot path's second half: whether an event (``isRoutine(_:)`` or not), appended
  /// with `waiting` events now in the buffer, needs ``respond(to:waiting:wanted:)``; `wakes`
  /// for an action (``wakesWriter(_:)``), `wanted` for an event that can make a waiting
  /// rule hold (``EventInterest``), which the writer applies at once: its rule unlocks at
  /// that event, not at the next checkpoint.
  @inline(__always)
  func mustRespond(routine: Bool, waiting: Int, wakes: Bool = false, wanted: Bool = false) -> Bool {
    !routine || synchronous || wanted || waiting == Self.writerNudge || waiting >= Self.maximumWaitingEvents
      || (wakes && waiting == 1)
  }

  /// What an appended event makes the engine do, `waiting` events now in the buffer:
  /// process it (a synchronous scheduler, a flood), ask the writer to, or persist. `nil`
  /// for a screen event or a touch (``isRoutine(_:)``), which need no more than its kind.
  func respond(to event: LifecycleEvent?, waiting: Int, wanted: Bool = false) {
    switch event {
    case nil, .appear, .disappear, .pause, .resume, .interact, .action:
      if synchronous {
        process()
      } else if waiting == Self.writerNudge {
        // Ask the writer once per crossing, not once per event.
        onWriter { $0.process() }
      } else if waiting >= Self.maximumWaitingEvents {
        // The writer does not keep up (a burst, or its queue is blocked): apply the events
        // here rather than let the buffer grow, so that `background` has few to apply.
        process()
      } else if waiting == 1 || wanted {
        // An action into an empty buffer (``wakesWriter(_:)``), or an event a waiting rule
        // wants (once until the writer drains): the writer applies it now.
        onWriter { $0.process() }
      }
    case .background, .terminate:
      if synchronous {
        persistNow()
      } else {
        // `background` persists on this thread; `terminate` waits for the writer's queue first.
        var background = false
        if case .background? = event { background = true }
        persistBeforeReturning(onThisThread: background)
      }
    case .active, .inactive, .foreground, .clockChanged:
      onWriter { $0.process() }
    }
  }

  /// Puts events recorded before this engine existed into its buffer, in order, without
  /// processing them (the caller may hold a lock); ``applyEnqueued()`` applies them.
  /// Their screen names are cleaned as they go in.
  func enqueue(_ events: [(MonotonicInstant, LifecycleEvent)]) {
    for (instant, event) in events {
      var pending: LifecycleEvent? = event
      _ = append(&pending, at: instant)
    }
  }

  /// Applies what ``enqueue(_:)`` put in the buffer, and commits if the app went to the
  /// background meanwhile.
  func applyEnqueued() {
    process()
    if state.withLock({ !$0.accountant.isActive }) { commitReportingErrors() }
  }

  /// Hands `work` to the writer: at once on a synchronous scheduler, otherwise in order on
  /// the scheduler's queue (dropped if the engine is gone by then).
  func onWriter(_ work: @escaping @Sendable (Engine) -> Void) {
    if synchronous {
      work(self)
    } else {
      scheduler.perform { [weak self] in if let self { work(self) } }
    }
  }

  // MARK: Observing

  /// Calls `handler` for every unlock, once, after it is persisted, in order, with no lock
  /// of Dwell's held.
  package func onUnlock(_ handler: @escaping @Sendable (UnlockRecord) -> Void) { announcer.onUnlock(handler) }

  /// Calls `handler` for every notification a plugin posts, once, after what came before
  /// it is persisted.
  package func onNotification(_ handler: @escaping @Sendable (UsageNotification) -> Void) {
    announcer.onNotification(handler)
  }

  /// Calls `handler` when a commit fails (the data stays in memory and is retried).
  package func onError(_ handler: @escaping @Sendable (any Error) -> Void) { announcer.onError(handler) }
}

extension Store {
  /// The store of engines that keep everything in memory: an empty in-memory database,
  /// made once and never written.
  static let placeholder: Store? = try? Store(path: ":memory:")
}
