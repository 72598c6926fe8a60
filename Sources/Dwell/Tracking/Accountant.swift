internal import Foundation

/// The accounting rules of <doc:Accounting>, as a pure state machine over monotonic instants.
///
/// Not thread-safe: the ``Engine`` owns one behind its state lock. All instants are
/// nanoseconds on the monotonic clock of the current boot; the wall clock enters only
/// through the anchor that names days.
struct Accountant {
  let idleTimeout: Int64?
  let sessionTimeout: Int64
  let boot: String

  // Wall-clock anchor: wall(m) = anchorWall + (m - anchorMono).
  private(set) var anchorMono: Int64
  private(set) var anchorWall: WallInstant
  private(set) var calendar: DayCalendar
  private var daySpan: (day: Day, start: Int64, end: Int64)?

  // Lifecycle.
  private(set) var isActive = false
  private(set) var cursor: Int64
  private(set) var idleDeadline: Int64 = .max
  /// Visible instances and their visits in progress; few at a time, so an array.
  private var visits: [VisitState] = []
  /// Indexes of screen names with at least one visible instance.
  private(set) var visibleScreens: [Int32] = []

  // Totals.
  private(set) var app: Tally
  private(set) var screens: [ScreenUsage] = []
  private(set) var screenIndex: [String: Int32] = [:]
  private(set) var sessions: Int
  private(set) var lastStop: StopMark?

  /// Changes not yet committed to the store.
  private(set) var pending = PendingChanges()
  /// Days credited since the last call to ``takeCreditedDays()``.
  private var creditedDays: [Day] = []
  /// Whether to collect ``UsageEvent``s for listeners.
  var collectsEvents = false
  /// Whether time and visits are also kept as pending changes for the store; an engine in
  /// memory never writes one, so it skips that work (unlocks, awards and states are kept).
  var keepsPendingTotals = true
  /// Events since the last ``takeEvents()``.
  private var events: [UsageEvent] = []
  /// Points awarded by listeners, all time.
  private(set) var points: Int
  /// Listener states by source.
  private(set) var listenerStates: [String: String]

  init(
    now: Int64, wall: WallInstant, timeZone: TimeZone, boot: String, idleTimeout: Int64?,
    sessionTimeout: Int64, restored: RestoredUsage
  ) {
    self.idleTimeout = idleTimeout
    self.sessionTimeout = sessionTimeout
    self.boot = boot
    anchorMono = now
    anchorWall = wall
    calendar = DayCalendar(timeZone: timeZone)
    cursor = now
    app = restored.app
    sessions = restored.sessions
    lastStop = restored.lastStop
    points = restored.points
    listenerStates = restored.listenerStates
    for screen in restored.screens {
      let index = intern(screen.name)
      screens[Int(index)].tally = screen.tally
      screens[Int(index)].visits = screen.visits
    }
  }

  // MARK: Wall clock

  /// The wall-clock instant at monotonic instant `m`, by the current anchor.
  func wall(at m: Int64) -> WallInstant {
    WallInstant(nanosecondsSince1970: anchorWall.nanosecondsSince1970 &+ (m &- anchorMono))
  }

  /// The local day at `m` and where it ends, on the monotonic timeline.
  mutating func span(at m: Int64) -> (day: Day, start: Int64, end: Int64) {
    if let span = daySpan, span.start <= m, m < span.end { return span }
    let found = calendar.span(containing: wall(at: m))
    let offset = anchorMono &- anchorWall.nanosecondsSince1970
    let span = (
      found.day, found.start.nanosecondsSince1970 &+ offset, found.end.nanosecondsSince1970 &+ offset
    )
    daySpan = span
    return span
  }

  // MARK: Accrual

  /// Whether the app accrues time right after instant `m` (active and not idle).
  func isAccruing(at m: Int64) -> Bool { isActive && m < idleDeadline }

  /// Credits everything accrued from the cursor up to `m` and moves the cursor to `m`.
  mutating func advance(to m: Int64) {
    guard m > cursor else { return }
    if isActive {
      let end = min(m, idleDeadline)
      var start = cursor
      while start < end {
        let span = span(at: start)
        let stop = min(end, span.end)
        credit(stop - start, on: span.day)
        start = stop
      }
    }
    cursor = m
  }

  private mutating func credit(_ amount: Int64, on day: Day) {
    guard amount > 0 else { return }
    if collectsEvents, app.days[day] == nil { events.append(.dayStarted(day)) }
    app.add(amount, on: day)
    if keepsPendingTotals { pending.add(amount, day: day, screen: -1) }
    for index in visibleScreens {
      screens[Int(index)].tally.add(amount, on: day)
      if keepsPendingTotals { pending.add(amount, day: day, screen: index) }
    }
    for k in visits.indices { visits[k].activeNanos += amount }
    if creditedDays.last != day { creditedDays.append(day) }
    revision &+= 1
  }

  /// The days credited since the rule book last took them.
  var pendingCreditedDays: [Day] { creditedDays }

  /// The days credited since the previous call (usually one), for rule qualifiers.
  mutating func takeCreditedDays() -> [Day] {
    // Handed over, not copied: clearing a buffer the caller shares would allocate a new one.
    guard !creditedDays.isEmpty else { return [] }
    defer { creditedDays = [] }
    return creditedDays
  }

  /// Time accrued for `screen` (or the app) between the cursor and `now` that is not
  /// credited yet, by day. Used by queries, which must not move the cursor.
  mutating func projected(_ screen: String?, to now: Int64) -> [(day: Day, nanos: Int64)] {
    guard isActive, now > cursor else { return [] }
    if let screen {
      guard let index = screenIndex[screen], screens[Int(index)].visible > 0 else { return [] }
    }
    let end = min(now, idleDeadline)
    var start = cursor
    var result: [(day: Day, nanos: Int64)] = []
    while start < end {
      let span = span(at: start)
      let stop = min(end, span.end)
      result.append((span.day, stop - start))
      start = stop
    }
    return result
  }

  /// The tally of `screen` (or the app), `nil` for a screen never seen.
  func tally(_ screen: String?) -> Tally? {
    guard let screen else { return app }
    return screenIndex[screen].map { screens[Int($0)].tally }
  }

  // MARK: Events

  /// Applies one event at instant `m` (after ``advance(to:)`` to the same instant).
  mutating func apply(_ event: LifecycleEvent, at m: Int64) {
    advance(to: m)
    revision &+= 1
    switch event {
    case .active:
      if !isActive {
        isActive = true
        if startsSession(at: m) {
          sessions += 1
          pending.sessions += 1
          if collectsEvents { events.append(.sessionStarted) }
        }
      }
      resetIdle(at: m)
    case .inactive, .background, .foreground, .terminate:
      if isActive {
        isActive = false
        lastStop = StopMark(mono: m, boot: boot, wall: wall(at: m))
        pending.lastStop = lastStop
        if collectsEvents { events.append(.paused) }
      }
      if case .terminate = event {
        for visit in visits { hide(visit.id, at: m) }
      }
    case .appear(let name, let id):
      if !visits.contains(where: { $0.id == id }) {
        let index = intern(name)
        screens[Int(index)].visits += 1
        screens[Int(index)].visible += 1
        if screens[Int(index)].visible == 1 { visibleScreens.append(index) }
        if keepsPendingTotals { pending.visits[index, default: 0] += 1 }
        if collectsEvents { events.append(.screenEntered(name)) }
        visits.append(VisitState(id: id, screen: index, started: wall(at: m), activeNanos: 0))
      }
      resetIdle(at: m)
    case .disappear(let id):
      hide(id, at: m)
    case .interact:
      resetIdle(at: m)
    case .clockChanged(let newWall, let zone):
      let current = wall(at: m)
      anchorMono = m
      anchorWall = newWall ?? current
      if let zone { calendar = DayCalendar(timeZone: zone) }
      daySpan = nil
    }
  }

  private mutating func hide(_ id: ScreenInstance, at m: Int64) {
    guard let position = visits.firstIndex(where: { $0.id == id }) else { return }
    let visit = visits.remove(at: position)
    let index = visit.screen
    screens[Int(index)].visible -= 1
    if screens[Int(index)].visible == 0 {
      visibleScreens.removeAll { $0 == index }
    }
    if keepsPendingTotals {
      if pending.closedVisits.count < Self.maximumPendingVisitRecords {
        pending.closedVisits.append(record(visit, ended: wall(at: m)))
      } else {
        droppedVisitRecords += 1
      }
    }
    if collectsEvents { events.append(.screenLeft(screens[Int(index)].name)) }
    revision &+= 1
  }

  private mutating func resetIdle(at m: Int64) {
    guard let idleTimeout else { return }
    idleDeadline = m &+ idleTimeout
  }

  private func startsSession(at m: Int64) -> Bool {
    guard let lastStop else { return true }
    let gap: Int64
    if lastStop.boot == boot {
      gap = m - lastStop.mono
    } else {
      // Another boot: only the wall clock spans it. A clock set backwards starts a session.
      gap = wall(at: m).nanosecondsSince1970 - lastStop.wall.nanosecondsSince1970
      if gap < 0 { return true }
    }
    return gap >= sessionTimeout
  }

  mutating func intern(_ name: String) -> Int32 {
    if let index = screenIndex[name] { return index }
    let index = Int32(screens.count)
    screens.append(ScreenUsage(name: name))
    screenIndex[name] = index
    return index
  }

  // MARK: Checkpoints

  private func record(_ visit: VisitState, ended: WallInstant) -> VisitRecord {
    VisitRecord(
      screen: screens[Int(visit.screen)].name, started: visit.started, ended: ended,
      activeNanos: visit.activeNanos)
  }

  /// Everything since the last fold, by screen name, with the open visits as of the
  /// cursor. `take` clears the pending changes (a fold); otherwise they stay (a journal write).
  mutating func batch(take: Bool) -> CheckpointBatch {
    let stamp = wall(at: cursor)
    // While active, the latest checkpoint stands in for the stop a crash would hide.
    if isActive { pending.lastStop = StopMark(mono: cursor, boot: boot, wall: stamp) }
    var batch = CheckpointBatch(boot: boot)
    batch.days = pending.days.map { key, nanos in
      CheckpointBatch.Entry(
        day: key.day, screen: key.screen < 0 ? nil : screens[Int(key.screen)].name, nanos: nanos)
    }
    batch.visits = pending.visits.map { .init(screen: screens[Int($0.key)].name, count: $0.value) }
    batch.closedVisits = pending.closedVisits
    batch.openVisits = visits.map { record($0, ended: stamp) }
    batch.sessions = pending.sessions
    batch.lastStop = pending.lastStop
    batch.unlocks = pending.unlocks
    batch.awards = pending.awards
    batch.listenerStates = pending.listenerStates.map { .init(source: $0.key, data: $0.value) }
    if take { pending = PendingChanges() }
    return batch
  }

  /// Drops the changes waiting for a store (an engine in memory has none) and returns the
  /// unlocks among them.
  mutating func dropPending() -> [UnlockRecord] {
    defer { pending = PendingChanges() }
    return pending.unlocks
  }

  /// Puts back changes whose fold failed, so they go with the next one.
  mutating func restore(_ batch: CheckpointBatch) {
    for entry in batch.days {
      pending.add(entry.nanos, day: entry.day, screen: entry.screen.map { intern($0) } ?? -1)
    }
    for visit in batch.visits { pending.visits[intern(visit.screen), default: 0] += visit.count }
    pending.closedVisits = batch.closedVisits + pending.closedVisits
    let excess = pending.closedVisits.count - Self.maximumPendingVisitRecords
    if excess > 0 {
      pending.closedVisits.removeLast(excess)
      droppedVisitRecords += excess
    }
    pending.sessions += batch.sessions
    if pending.lastStop == nil { pending.lastStop = batch.lastStop }
    pending.unlocks = batch.unlocks + pending.unlocks
    pending.awards = batch.awards + pending.awards
    for state in batch.listenerStates where pending.listenerStates[state.source] == nil {
      pending.listenerStates[state.source] = state.data
    }
  }

  /// Closed visits waiting to be folded.
  var pendingVisitCount: Int { pending.closedVisits.count }

  /// The most closed visits kept row by row while they wait to be folded (about 3 MB).
  /// Only a writer that is stalled (a full or failing disk) or a flood far beyond any app
  /// (hundreds of thousands of screen changes a second) reaches it; past it, visits still
  /// count in every total and visit count, but their rows in `visits` are not kept.
  static let maximumPendingVisitRecords = 65_536

  /// Visits counted whose rows were not kept, because of the bound above.
  private(set) var droppedVisitRecords = 0

  /// Whether anything waits to be folded into the store.
  var hasPendingChanges: Bool { !pending.isEmpty }

  /// Increases with every change; the engine journals when it moved.
  private(set) var revision: UInt64 = 0

  /// Adds totals kept elsewhere (the app's own UserDefaults counters) to `day`, once per
  /// `key`. Returns `false` if that key was imported before.
  mutating func importTotals(app: Int64, screens: [String: Int64], on day: Day, key: String) -> Bool {
    let marker = "import:" + key
    guard listenerStates[marker] == nil else { return false }
    if app > 0 {
      self.app.add(app, on: day)
      pending.add(app, day: day, screen: -1)
    }
    for (name, nanos) in screens.sorted(by: { $0.key < $1.key }) where nanos > 0 {
      let index = intern(name)
      self.screens[Int(index)].tally.add(nanos, on: day)
      pending.add(nanos, day: day, screen: index)
    }
    if creditedDays.last != day { creditedDays.append(day) }
    saveState("imported", for: marker)
    return true
  }

  /// The visible instances and their names.
  var visibleInstances: [(name: String, id: ScreenInstance)] {
    visits.map { (screens[Int($0.screen)].name, $0.id) }
  }

  /// Takes over another engine's live state without counting sessions or visits.
  mutating func adopt(active: Bool, visible: [(name: String, id: ScreenInstance)]) {
    if active, !isActive {
      isActive = true
      if let idleTimeout { idleDeadline = cursor &+ idleTimeout }
    }
    for (name, id) in visible where !visits.contains(where: { $0.id == id }) {
      let index = intern(name)
      screens[Int(index)].visible += 1
      if screens[Int(index)].visible == 1 { visibleScreens.append(index) }
      visits.append(VisitState(id: id, screen: index, started: wall(at: cursor), activeNanos: 0))
    }
    revision &+= 1
  }

  /// The events since the previous call.
  mutating func takeEvents() -> [UsageEvent] {
    guard !events.isEmpty else { return [] }
    defer { events = [] }
    return events
  }

  /// Adds points to the ledger.
  mutating func award(_ award: Award) {
    points += award.points
    pending.awards.append(award)
    revision &+= 1
  }

  /// Replaces a listener's saved state.
  mutating func saveState(_ data: String, for source: String) {
    guard listenerStates[source] != data else { return }
    listenerStates[source] = data
    pending.listenerStates[source] = data
    revision &+= 1
  }

  /// Records an unlock so the next journal write and fold persist it.
  mutating func recordUnlock(_ unlock: UnlockRecord) {
    pending.unlocks.append(unlock)
    revision &+= 1
  }
}

/// One visit in progress.
struct VisitState: Sendable {
  let id: ScreenInstance
  let screen: Int32
  let started: WallInstant
  var activeNanos: Int64
}
