internal import Foundation

/// The tracking engine: turns lifecycle events into accrued time, visits, sessions, days
/// and unlocks, following <doc:Accounting>, and commits them to a ``Store``.
///
/// One engine lives for one process run: creating it is the launch, ``terminate()`` is a
/// clean exit, and an engine that simply stops (a crash) loses at most the checkpoint
/// interval. ``record(_:)`` is the hot path: a clock read and an append under an
/// uncontended lock, with no I/O. Everything else runs on the injected scheduler.
///
/// ```swift
/// let engine = try Engine(store: Store(path: path), configuration: .init(rules: rules))
/// engine.record(.active)
/// engine.record(.appear(screen: "Lessons", id: ScreenInstance("lessons-1")))
/// ```
public final class Engine: Sendable {
  /// The configuration the engine was created with.
  public let configuration: Configuration
  /// The store the engine commits to.
  public let store: Store
  private let clock: any MonotonicClock
  private let scheduler: any EngineScheduler
  /// `scheduler.isSynchronous`, read once: the hot path avoids the existential call.
  private let synchronous: Bool
  /// The system clock, when that is the clock: the hot path reads it without an existential call.
  private let systemClock: SystemMonotonicClock?
  /// Whether the engine keeps everything in memory (no store, journal or checkpoints).
  private let inMemory: Bool
  private let buffer = EventBuffer()
  private let state: Locked<State>
  private let committer: Locked<Committer>
  private let handlers = Locked<Handlers>(Handlers())

  private struct State: ~Copyable {
    var accountant: Accountant
    var book: RuleBook
    var spare: [StampedEvent] = []
    var wake: (at: Int64, work: any ScheduledWork)?
    var checkpoint: (any ScheduledWork)?
    var stopped = false
    /// The accountant's revision at the last journal write.
    var journaled: UInt64 = 0
    /// When the last fold into SQLite happened.
    var lastFold: Int64
    /// Notifications waiting for the checkpoint that persists what came before them.
    var notifications: [UsageNotification] = []
    /// Periodic checkpoints so far (for tests).
    var periodicCheckpoints = 0
    /// Listeners in force (replaced on hot reload).
    var listeners: [any UsageListener]
    /// A fold was asked for because of a flood of visits and has not run yet.
    var foldRequested = false
  }

  /// Serialises journal writes and folds, so the journal never runs behind a fold.
  private struct Committer: ~Copyable {
    var journal: Journal?
    var announced = Set<String>()
    /// Folds that failed in a row (a full disk, say), and the instant before which a
    /// checkpoint that cannot journal does not try to fold again: the backlog grows while
    /// the disk is full, and retrying it every interval would cost more each time.
    var failedFolds = 0
    var retryFoldAt: Int64 = .min
  }

  private struct Handlers {
    var unlock: [@Sendable (UnlockRecord) -> Void] = []
    var error: [@Sendable (any Error) -> Void] = []
    var notification: [@Sendable (UsageNotification) -> Void] = []
  }

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
  public convenience init(
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
      throw StoreError.database(DatabaseError(code: 1, message: "cannot open an in-memory SQLite database", sql: nil))
    }
    try self.init(
      store: placeholder, inMemory: true, configuration: configuration, clock: clock, wallClock: wallClock,
      scheduler: scheduler, launchedAt: nil)
  }

  private init(
    store: Store, inMemory: Bool, configuration: Configuration, clock: any MonotonicClock,
    wallClock: any WallClock, scheduler: (any EngineScheduler)?, launchedAt: MonotonicInstant?
  ) throws {
    try Rule.validate(configuration.rules)
    self.configuration = configuration
    self.store = store
    self.inMemory = inMemory
    self.clock = clock
    self.scheduler = scheduler ?? DispatchScheduler(clock: clock)
    synchronous = self.scheduler.isSynchronous
    systemClock = clock as? SystemMonotonicClock
    var restored = RestoredUsage()
    if !inMemory {
      do {
        try store.recoverJournals(currentBoot: clock.bootSession)
        restored = try store.load()
      } catch let error as DatabaseError {
        throw StoreError.database(error)
      }
    }
    let journal = !inMemory && store.isFile ? try? Journal(storePath: store.path) : nil
    committer = Locked(Committer(journal: journal, announced: Set(restored.unlocks.map(\.rule))))
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
    let book = RuleBook(
      rules: configuration.rules, unlocked: restored.unlocks,
      tick: configuration.evaluationTick.nanoseconds,
      wantsTicks: configuration.listeners.contains { $0.wantsTicks }, accountant: accountant)
    state = Locked(State(accountant: accountant, book: book, lastFold: now, listeners: configuration.listeners))
    for listener in configuration.listeners { listener.restore(states: restored.listenerStates) }
  }

  // MARK: Recording (hot path)

  /// The most events that wait for the writer before the recording thread applies them
  /// itself (about 20 MB).
  @_spi(Testing) public static let maximumWaitingEvents = 262_144

  /// Events recorded but not yet applied (for tests).
  @_spi(Testing) public var waitingEvents: Int { buffer.count }

  /// The most closed visits whose rows wait in memory for the writer; past it, visits still
  /// count in all totals but their individual rows (the `visits` table) are not kept.
  @_spi(Testing) public static var maximumPendingVisitRecords: Int { Accountant.maximumPendingVisitRecords }

  /// Visits counted without their row, because the writer could not keep up (for tests).
  @_spi(Testing) public var droppedVisitRecords: Int { state.withLock { $0.accountant.droppedVisitRecords } }

  /// Checkpoints made by the periodic timer so far (for tests).
  @_spi(Testing) public var periodicCheckpoints: Int { state.withLock { $0.periodicCheckpoints } }

  /// Closed visits waiting in memory for the writer (for tests).
  @_spi(Testing) public var pendingVisitRecords: Int { state.withLock { $0.accountant.pendingVisitCount } }

  /// Records an event now. Safe from any thread; costs a clock read and an append.
  ///
  /// - Complexity: O(1), no I/O, no allocation in steady state.
  @inline(__always)
  public func record(_ event: LifecycleEvent) {
    record(event, at: systemClock?.now() ?? clock.now())
  }

  /// Records an event that happened at `instant` (on this engine's clock), such as one
  /// buffered while the store was opening. Instants before the previous event's count as it.
  public func record(_ event: LifecycleEvent, at instant: MonotonicInstant) {
    let waiting = buffer.append(StampedEvent(at: instant.nanoseconds, event: event))
    switch event {
    case .appear, .disappear, .interact:
      if synchronous {
        process()
      } else if waiting == 4096 {
        // Ask the writer once per crossing, not once per event.
        scheduler.perform { [weak self] in self?.process() }
      } else if waiting >= Self.maximumWaitingEvents {
        // The writer cannot keep up at all (a flood, or its queue is blocked): apply the
        // events here rather than let the buffer grow without bound.
        process()
      }
    case .background, .terminate:
      if synchronous {
        commitReportingErrors()
      } else {
        scheduler.perform { [weak self] in self?.commitReportingErrors() }
      }
    case .active, .inactive, .foreground, .clockChanged:
      if synchronous {
        process()
      } else {
        scheduler.perform { [weak self] in self?.process() }
      }
    }
  }

  // MARK: Processing

  /// Applies every recorded event and brings accrual up to now; unlocks rules at their
  /// exact instants. Called by timers and queries; safe from any thread.
  public func process() {
    let now = clock.now().nanoseconds
    var mustFold = false
    let mustPersist = state.withLock { state -> Bool in
      guard !state.stopped else { return false }
      let notesBefore = state.notifications.count
      var events = state.spare
      state.spare = []  // uniquely referenced, or the hot path would copy it on its next append
      buffer.drain(into: &events)
      var unlocked: [UnlockRecord] = []
      for item in events {
        let at = max(item.at, state.accountant.cursor)
        catchUp(&state, to: at, &unlocked)
        state.accountant.apply(item.event, at: at)
        let fresh = state.book.evaluate(at: at, &state.accountant)
        unlocked += fresh
        unlocked += dispatch(&state, at: at, fresh, tick: false)
      }
      events.removeAll(keepingCapacity: true)
      state.spare = events
      catchUp(&state, to: max(now, state.accountant.cursor), &unlocked)
      for record in unlocked { state.accountant.recordUnlock(record) }
      scheduleTimers(&state)
      // A flood of visits (thousands a second) is folded early, so memory stays bounded.
      // Once per fold: commit() calls process() itself.
      if state.accountant.pendingVisitCount >= 4096, !state.foldRequested {
        state.foldRequested = true
        mustFold = true
      }
      // Only what this call produced: a checkpoint calls process() itself.
      return !unlocked.isEmpty || state.notifications.count > notesBefore
    }
    if mustFold {
      if synchronous {
        commitReportingErrors()
      } else {
        scheduler.perform { [weak self] in self?.commitReportingErrors() }
      }
    } else if mustPersist {
      // Persist (journal) before announcing.
      if scheduler.isSynchronous {
        checkpoint()
      } else {
        scheduler.perform { [weak self] in self?.checkpoint() }
      }
    }
  }

  /// Advances accrual to `target`, stopping at each instant a rule could unlock.
  private func catchUp(_ state: inout State, to target: Int64, _ unlocked: inout [UnlockRecord]) {
    while let wake = state.book.nextWake(after: state.accountant.cursor, &state.accountant),
      wake <= target
    {
      state.accountant.advance(to: wake)
      let fresh = state.book.evaluate(at: wake, &state.accountant)
      unlocked += fresh
      unlocked += dispatch(&state, at: wake, fresh, tick: state.book.isTick(state.accountant))
    }
    state.accountant.advance(to: target)
  }

  /// Hands events to the listeners and carries out their actions. Returns the unlocks
  /// they caused (already recorded in the rule book).
  private func dispatch(_ state: inout State, at m: Int64, _ fresh: [UnlockRecord], tick: Bool) -> [UnlockRecord] {
    let listeners = state.listeners
    guard !listeners.isEmpty else { return [] }
    var queue = state.accountant.takeEvents() + fresh.map { .unlocked($0.rule) } + (tick ? [.tick] : [])
    var caused: [UnlockRecord] = []
    var rounds = 0
    while !queue.isEmpty, rounds < 8 {
      rounds += 1
      let today = state.accountant.span(at: m).day
      let view = state.book.makeView(at: m, state.accountant, today: today)
      var next: [UsageEvent] = []
      for event in queue {
        for listener in listeners {
          for action in listener.receive(event, usage: view) {
            switch action {
            case .award(let points, let reason, let source):
              state.accountant.award(
                Award(source: source, points: points, reason: reason, wall: state.accountant.wall(at: m)))
            case .unlock(let id):
              if let record = state.book.unlock(id, at: m, state.accountant) {
                caused.append(record)
                next.append(.unlocked(id))
              }
            case .notify(let notification):
              state.notifications.append(notification)
            case .saveState(let source, let data):
              if data.utf8.count <= 64 << 10 { state.accountant.saveState(data, for: source) }
            }
          }
        }
      }
      queue = next
    }
    return caused
  }

  private func scheduleTimers(_ state: inout State) {
    let cursor = state.accountant.cursor
    let next = state.book.nextWake(after: cursor, &state.accountant)
    if state.wake?.at != next {
      state.wake?.work.cancel()
      state.wake = nil
      if let next {
        let work = scheduler.schedule(at: MonotonicInstant(nanoseconds: next)) { [weak self] in
          self?.process()
        }
        state.wake = (next, work)
      }
    }
    if !inMemory, state.checkpoint == nil,
      state.accountant.isAccruing(at: cursor) || state.accountant.hasPendingChanges
    {
      let interval = max(configuration.checkpointInterval.nanoseconds, 1)
      var at = cursor &+ interval
      if let horizon = scheduler.horizon?.nanoseconds, horizon > at {
        // The clock is jumping to `horizon` with nothing recorded on the way: one
        // checkpoint in the last interval before it does what all the others would.
        at += (horizon - at) / interval * interval
      }
      state.checkpoint = scheduler.schedule(at: MonotonicInstant(nanoseconds: at)) { [weak self] in
        self?.checkpointFired()
      }
    }
  }

  private func checkpointFired() {
    state.withLock {
      $0.checkpoint = nil
      $0.periodicCheckpoints += 1
    }
    checkpoint()
  }

  /// Every few seconds of use changes are folded into SQLite; in between, the journal.
  private var foldInterval: Int64 { configuration.checkpointInterval.nanoseconds * 15 }

  // MARK: Committing

  /// Makes everything accrued so far crash-safe: writes the journal (microseconds), or
  /// folds into SQLite when a fold is due or the journal cannot be written.
  func checkpoint() {
    if inMemory { return release() }
    process()
    let foldNow = committer.withLock { committer -> Bool in
      let (batch, fold, notes) = state.withLock { state -> (CheckpointBatch?, Bool, [UsageNotification]) in
        guard !state.stopped else { return (nil, false, []) }
        let accountant = state.accountant
        if accountant.hasPendingChanges, accountant.cursor - state.lastFold >= foldInterval {
          return (nil, true, [])
        }
        guard accountant.revision != state.journaled || !state.notifications.isEmpty else { return (nil, false, []) }
        state.journaled = accountant.revision
        defer { state.notifications.removeAll() }
        return (state.accountant.batch(take: false), false, state.notifications)
      }
      guard let batch else { return fold }
      if let journal = committer.journal, (try? journal.write(batch)) != nil {
        announce(batch.unlocks, notes, &committer)
        return false
      }
      // No journal, or it could not be written: fold instead (unless folds are backing
      // off), and announce only once that is done.
      state.withLock { $0.notifications = notes + $0.notifications }
      return clock.now().nanoseconds >= committer.retryFoldAt
    }
    if foldNow { commitReportingErrors() }
    state.withLock { scheduleTimers(&$0) }
  }

  /// Folds everything accrued so far into the SQLite store, synchronously.
  ///
  /// Called automatically every few checkpoints, on `background` and on `terminate`. If
  /// the store cannot be written, the changes stay in memory (and in the journal) and go
  /// with the next fold.
  /// - Throws: the store's error.
  public func commit() throws {
    if inMemory { return release() }
    process()
    try committer.withLock { committer in
      guard
        let (batch, notes) = state.withLock({ state -> (CheckpointBatch, [UsageNotification])? in
          guard !state.stopped else { return nil }
          state.lastFold = state.accountant.cursor
          state.foldRequested = false
          guard state.accountant.hasPendingChanges || !state.notifications.isEmpty else { return nil }
          state.journaled = state.accountant.revision
          defer { state.notifications.removeAll() }
          return (state.accountant.batch(take: true), state.notifications)
        })
      else { return }
      let journal = committer.journal
      do {
        try store.fold(batch, journal: journal?.owner, sequence: journal?.sequence ?? 0)
      } catch {
        state.withLock {
          $0.accountant.restore(batch)
          $0.notifications = notes + $0.notifications
        }
        throw error
      }
      announce(batch.unlocks, notes, &committer)
      // Start the journal afresh: only the visits still open.
      if let journal, !batch.openVisits.isEmpty {
        var rest = CheckpointBatch(boot: batch.boot)
        rest.openVisits = batch.openVisits
        try? journal.write(rest)
      }
    }
    state.withLock { scheduleTimers(&$0) }
  }

  /// A memory engine's checkpoint and commit: what is pending is dropped (it is in the
  /// totals already) and unlocks and notifications are announced at once.
  private func release() {
    process()
    committer.withLock { committer in
      let (unlocks, notes) = state.withLock { state -> ([UnlockRecord], [UsageNotification]) in
        state.lastFold = state.accountant.cursor
        state.foldRequested = false
        state.journaled = state.accountant.revision
        defer { state.notifications.removeAll() }
        return (state.accountant.dropPending(), state.notifications)
      }
      announce(unlocks, notes, &committer)
    }
  }

  private func announce(_ unlocks: [UnlockRecord], _ notes: [UsageNotification], _ committer: inout Committer) {
    let fresh = unlocks.filter { committer.announced.insert($0.rule).inserted }
    guard !fresh.isEmpty || !notes.isEmpty else { return }
    let handlers = handlers.withLock { $0 }
    for record in fresh {
      for handler in handlers.unlock { handler(record) }
    }
    for note in notes {
      for handler in handlers.notification { handler(note) }
    }
  }

  private func commitReportingErrors() {
    do {
      try commit()
      committer.withLock {
        $0.failedFolds = 0
        $0.retryFoldAt = .min
      }
    } catch {
      let now = clock.now().nanoseconds
      committer.withLock {
        $0.failedFolds += 1
        let backoff = configuration.checkpointInterval.nanoseconds << min($0.failedFolds, 5)
        $0.retryFoldAt = now &+ min(backoff, 60_000_000_000)
      }
      let report = handlers.withLock { $0.error }
      for handler in report { handler(error) }
    }
  }

  /// Ends the process run cleanly: records `terminate` and commits everything.
  public func terminate() {
    record(.terminate)
    if !scheduler.isSynchronous { commitReportingErrors() }
    let clean = state.withLock { !$0.accountant.hasPendingChanges }
    stop()
    if clean { committer.withLock { $0.journal?.remove() } }
  }

  /// Stops the engine without committing, as a crash would: whatever was not yet in the
  /// journal or the store is lost. Used by replay and crash tests; an app never needs it.
  public func abandon() {
    stop()
    committer.withLock { $0.journal?.abandon() }
  }

  private func stop() {
    state.withLock { state in
      state.stopped = true
      state.wake?.work.cancel()
      state.wake = nil
      state.checkpoint?.cancel()
      state.checkpoint = nil
    }
  }

  // MARK: Rules

  /// Replaces the rules in force (hot reload). Rules already unlocked stay unlocked; the
  /// progress of the others is recomputed from the totals, not from history.
  ///
  /// - Throws: ``RuleError`` when the new rules are invalid; the old ones stay in force.
  ///
  /// - Parameters:
  ///   - rules: the new rules.
  ///   - listeners: the new listeners, or `nil` to keep the current ones. New listeners
  ///     get the states the old ones saved.
  public func setRules(_ rules: [Rule], listeners: [any UsageListener]? = nil) throws(RuleError) {
    try Rule.validate(rules)
    process()
    let unlocked = state.withLock { state -> [UnlockRecord] in
      if let listeners {
        for listener in listeners { listener.restore(states: state.accountant.listenerStates) }
        state.listeners = listeners
        state.accountant.collectsEvents = !listeners.isEmpty
      }
      let kept = Array(state.book.unlocked.values)
      state.book = RuleBook(
        rules: rules, unlocked: kept, tick: configuration.evaluationTick.nanoseconds,
        wantsTicks: state.listeners.contains { $0.wantsTicks }, accountant: state.accountant)
      let at = state.accountant.cursor
      let fresh = state.book.evaluate(at: at, &state.accountant)
      for record in fresh { state.accountant.recordUnlock(record) }
      scheduleTimers(&state)
      return fresh
    }
    if !unlocked.isEmpty {
      if scheduler.isSynchronous {
        checkpoint()
      } else {
        scheduler.perform { [weak self] in self?.checkpoint() }
      }
    }
  }

  /// The rules in force.
  public var rules: [Rule] { state.withLock { $0.book.rules } }

  /// Adds totals kept elsewhere to today, once per key (see `Tracker.importTotals`).
  func importTotals(app: Int64, screens: [String: Int64], key: String) -> Bool {
    process()
    let imported = state.withLock { state -> Bool in
      let cursor = state.accountant.cursor
      let today = state.accountant.span(at: cursor).day
      guard state.accountant.importTotals(app: app, screens: screens, on: today, key: key) else { return false }
      let fresh = state.book.evaluate(at: cursor, &state.accountant)
      for record in fresh { state.accountant.recordUnlock(record) }
      return true
    }
    if imported { commitReportingErrors() }
    return imported
  }

  /// What is going on now: whether the app is active and which instances are visible.
  func liveState() -> (active: Bool, visible: [(name: String, id: ScreenInstance)]) {
    withState { accountant, _ in (accountant.isActive, accountant.visibleInstances) }
  }

  /// Takes over what another engine had going (a store switch): active or not, and the
  /// visible instances, without counting a new session or new visits.
  func adopt(active: Bool, visible: [(name: String, id: ScreenInstance)]) {
    process()
    state.withLock { state in
      state.accountant.adopt(active: active, visible: visible)
      scheduleTimers(&state)
    }
  }

  /// Whether the app is active now (as the engine has processed).
  var isActive: Bool { withState { accountant, _ in accountant.isActive } }

  // MARK: Observing

  /// Calls `handler` for every unlock, once, after it is persisted, in order.
  public func onUnlock(_ handler: @escaping @Sendable (UnlockRecord) -> Void) {
    handlers.withLock { $0.unlock.append(handler) }
  }

  /// Calls `handler` for every notification a plugin posts, once, after what came before
  /// it is persisted.
  public func onNotification(_ handler: @escaping @Sendable (UsageNotification) -> Void) {
    handlers.withLock { $0.notification.append(handler) }
  }

  /// Calls `handler` when a commit fails (the data stays in memory and is retried).
  public func onError(_ handler: @escaping @Sendable (any Error) -> Void) {
    handlers.withLock { $0.error.append(handler) }
  }

  // MARK: Reading

  /// A report of all usage so far, including time accrued in the interval still open.
  public func report() -> UsageReport {
    process()
    return state.withLock { state in
      UsageReport(accountant: state.accountant, book: state.book)
    }
  }

  /// The progress of every rule in force, in order (memory only, no I/O).
  public func progress() -> [(rule: Rule, progress: RuleProgress)] {
    withState { accountant, book in book.progress(at: accountant.cursor, &accountant) }
  }

  /// The progress of one rule, or `nil` for an unknown id.
  public func progress(of id: String) -> RuleProgress? {
    progress().first { $0.rule.id == id }?.progress
  }

  /// The engine's current instant on its monotonic clock (accrual is counted up to here).
  public var now: MonotonicInstant {
    withState { accountant, _ in MonotonicInstant(nanoseconds: accountant.cursor) }
  }

  /// The wall-clock instant and local day now, by the engine's anchor.
  public func wallClockNow() -> (instant: WallInstant, day: Day, hour: Int) {
    withState { accountant, _ in
      let wall = accountant.wall(at: accountant.cursor)
      return (wall, accountant.span(at: accountant.cursor).day, accountant.calendar.hour(of: wall))
    }
  }

  /// Reads the live state under the engine's lock (memory only, no I/O).
  func withState<T>(_ body: (inout Accountant, inout RuleBook) -> T) -> T {
    process()
    return state.withLock { body(&$0.accountant, &$0.book) }
  }

  /// Reads the state for a query without processing timers: events waiting in the buffer
  /// are applied first; time accrued since then is projected, not credited.
  func reading<T>(_ body: (inout Accountant, RuleBook, Int64) -> T) -> T {
    if buffer.count > 0 { process() }
    let now = clock.now().nanoseconds
    return state.withLock { body(&$0.accountant, $0.book, max(now, $0.accountant.cursor)) }
  }
}

extension Store {
  /// The store of engines that keep everything in memory: an empty in-memory database,
  /// made once and never written.
  static let placeholder: Store? = try? Store(path: ":memory:")
}
