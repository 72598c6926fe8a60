internal import Foundation

/// The accounting rules of `TRACE.md`, as a pure state machine over monotonic instants.
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
  private var visible: [ScreenInstance: Int32] = [:]
  private var visits: [ScreenInstance: VisitState] = [:]
  /// Indexes of screen names with at least one visible instance.
  private(set) var visibleScreens: [Int32] = []

  // Totals.
  private(set) var app: Tally
  private(set) var screens: [ScreenUsage] = []
  private(set) var screenIndex: [String: Int32] = [:]
  private(set) var sessions: Int
  private(set) var lastStop: StopMark?
  private var nextVisitID: Int64

  /// Changes not yet committed to the store.
  private(set) var pending = PendingChanges()
  /// Days credited since the last call to ``takeCreditedDays()``.
  private var creditedDays: [Day] = []

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
    nextVisitID = restored.nextVisitID
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
    app.add(amount, on: day)
    pending.add(amount, day: day, screen: -1)
    for index in visibleScreens {
      screens[Int(index)].tally.add(amount, on: day)
      pending.add(amount, day: day, screen: index)
    }
    for key in visits.keys { visits[key]?.activeNanos += amount }
    if creditedDays.last != day { creditedDays.append(day) }
  }

  /// The days credited since the previous call (usually one), for rule qualifiers.
  mutating func takeCreditedDays() -> [Day] {
    defer { creditedDays.removeAll(keepingCapacity: true) }
    return creditedDays
  }

  // MARK: Events

  /// Applies one event at instant `m` (after ``advance(to:)`` to the same instant).
  mutating func apply(_ event: LifecycleEvent, at m: Int64) {
    advance(to: m)
    switch event {
    case .active:
      if !isActive {
        isActive = true
        if startsSession(at: m) {
          sessions += 1
          pending.sessions += 1
        }
      }
      resetIdle(at: m)
    case .inactive, .background, .foreground, .terminate:
      if isActive {
        isActive = false
        lastStop = StopMark(mono: m, boot: boot, wall: wall(at: m))
        pending.lastStop = lastStop
      }
      if case .terminate = event {
        for id in Array(visible.keys) { hide(id, at: m) }
      }
    case .appear(let name, let id):
      if visible[id] == nil {
        let index = intern(name)
        visible[id] = index
        screens[Int(index)].visits += 1
        screens[Int(index)].visible += 1
        if screens[Int(index)].visible == 1 { visibleScreens.append(index) }
        pending.visits[index, default: 0] += 1
        let visit = VisitState(
          id: nextVisitID, screen: index, started: wall(at: m), activeNanos: 0)
        nextVisitID += 1
        visits[id] = visit
        pending.visitRows[visit.id] = visit.row(ended: wall(at: m), open: true)
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
    guard let index = visible.removeValue(forKey: id) else { return }
    screens[Int(index)].visible -= 1
    if screens[Int(index)].visible == 0 {
      visibleScreens.removeAll { $0 == index }
    }
    if let visit = visits.removeValue(forKey: id) {
      pending.visitRows[visit.id] = visit.row(ended: wall(at: m), open: false)
    }
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

  /// Takes the changes accrued so far (up to the cursor) for a commit.
  mutating func takePending() -> CheckpointBatch {
    let stamp = wall(at: cursor)
    for (id, visit) in visits where visit.activeNanos != visit.committedNanos {
      pending.visitRows[visit.id] = visit.row(ended: stamp, open: true)
      visits[id]?.committedNanos = visit.activeNanos
    }
    // While active, the last checkpoint stands in for the stop a crash would hide.
    if isActive { pending.lastStop = StopMark(mono: cursor, boot: boot, wall: stamp) }
    var batch = CheckpointBatch(changes: pending, screenNames: [:])
    for key in pending.days.keys where key.screen >= 0 {
      batch.screenNames[key.screen] = screens[Int(key.screen)].name
    }
    for index in pending.visits.keys { batch.screenNames[index] = screens[Int(index)].name }
    for row in pending.visitRows.values { batch.screenNames[row.screen] = screens[Int(row.screen)].name }
    pending = PendingChanges()
    return batch
  }

  /// Puts back changes whose commit failed, so they are written with the next one.
  mutating func restorePending(_ batch: CheckpointBatch) {
    pending.merge(olderThanSelf: batch.changes)
  }

  /// Whether anything waits to be committed.
  var hasPendingChanges: Bool {
    !pending.isEmpty || visits.values.contains { $0.activeNanos != $0.committedNanos }
  }

  /// Records an unlock so the next commit persists it.
  mutating func recordUnlock(_ unlock: UnlockRecord) { pending.unlocks.append(unlock) }
}

/// One visit in progress.
struct VisitState: Sendable {
  let id: Int64
  let screen: Int32
  let started: WallInstant
  var activeNanos: Int64
  var committedNanos: Int64 = 0

  func row(ended: WallInstant, open: Bool) -> VisitRow {
    VisitRow(
      id: id, screen: screen, started: started, ended: ended, activeNanos: activeNanos, open: open)
  }
}
