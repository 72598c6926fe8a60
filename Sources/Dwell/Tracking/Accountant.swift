// The accountant's state, its wall-clock anchor and accrual: how time passing is credited to
// the app, the visible screens and their days. Events are in Accountant+Events.swift, what
// goes to the store in Accountant+Checkpoints.swift.

internal import Foundation

/// The accounting rules of <doc:Accounting>, as a pure state machine over monotonic instants.
///
/// Not thread-safe: the ``Engine`` owns one behind its state lock. All instants are
/// nanoseconds on the monotonic clock of the current boot; the wall clock enters only
/// through the anchor that names days. Its state is written by its own methods (here and in
/// the `Accountant+` files), except the engine's switches `collectsEvents` and `keepsPendingTotals`.
struct Accountant {
  let idleTimeout: Int64?
  let sessionTimeout: Int64
  let boot: String

  // Wall-clock anchor: wall(m) = anchorWall + (m - anchorMono).
  var anchorMono: Int64
  var anchorWall: WallInstant
  var calendar: DayCalendar
  var daySpan: (day: Day, start: Int64, end: Int64)?

  // Lifecycle.
  var isActive = false
  var cursor: Int64
  var idleDeadline: Int64 = .max
  /// Visible instances and their visits in progress; few at a time, so an array.
  var visits: [VisitState] = []
  /// Indexes of screen names with at least one visible instance that is not paused.
  var visibleScreens: [Int32] = []
  /// Where the screen groups measured now sit in `screens` (``measure(groups:)``).
  var measuredGroups: [Int32] = []

  // Totals.
  var app: Tally
  var screens: [ScreenUsage] = []
  var screenIndex: [String: Int32] = [:]
  var sessions: Int
  /// Sessions begun on each local day.
  var sessionDays: [Day: Int]
  /// Actions by name.
  var actions: [String: ActionTally]
  var lastStop: StopMark?

  /// Changes not yet committed to the store.
  var pending = PendingChanges()
  /// Days credited since the last call to ``clearCreditedDays()``.
  var creditedDays: [Day] = []
  /// Whether to collect ``UsageEvent``s for listeners.
  var collectsEvents = false
  /// Whether time and visits are also kept as pending changes for the store; an engine in
  /// memory never writes one, so it skips that work (unlocks, awards and states are kept).
  var keepsPendingTotals = true
  /// Events since the last ``takeEvents()``.
  var events: [UsageEvent] = []
  /// Points awarded by listeners, all time.
  var points: Int
  /// Listener states by source.
  var listenerStates: [String: String]

  /// Visits counted whose rows were not kept (``maximumPendingVisitRecords``).
  var droppedVisitRecords = 0
  /// Increases with every change; the engine journals when it moved.
  var revision: UInt64 = 0
  /// How many of the revisions were time credited (the rest: events, points, states...).
  var credits: UInt64 = 0

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
    sessionDays = restored.sessionDays
    actions = restored.actions
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
    if app.add(amount, on: day), collectsEvents { events.append(.dayStarted(day)) }
    if keepsPendingTotals { pending.add(amount, day: day, screen: -1) }
    for index in visibleScreens {
      screens[Int(index)].tally.add(amount, on: day)
      if keepsPendingTotals { pending.add(amount, day: day, screen: index) }
    }
    for k in visits.indices where !visits[k].paused { visits[k].activeNanos += amount }
    if creditedDays.last != day { creditedDays.append(day) }
    revision &+= 1
    credits &+= 1
  }

  /// The days credited since the rule book last took them.
  var pendingCreditedDays: [Day] { creditedDays }

  /// Forgets the credited days once the rule book has read them, keeping the buffer: a
  /// day is credited at nearly every event and tick, and a fresh array each time allocated.
  /// Last first (usually the only one): `removeAll(keepingCapacity:)` replaced a range.
  mutating func clearCreditedDays() {
    while !creditedDays.isEmpty { creditedDays.removeLast() }
  }

  /// Time accrued for `screen` (or the app) between the cursor and `now` that is not
  /// credited yet, handed to `body` day by day (usually one day; two across midnight).
  /// Used by queries, which must not move the cursor; allocates nothing.
  mutating func projected(_ screen: String?, to now: Int64, _ body: (Day, Int64) -> Void) {
    guard isActive, now > cursor else { return }
    if let screen {
      guard let index = screenIndex[screen], screens[Int(index)].visible > 0 else { return }
    }
    let end = min(now, idleDeadline)
    var start = cursor
    while start < end {
      let span = span(at: start)
      let stop = min(end, span.end)
      body(span.day, stop - start)
      start = stop
    }
  }

  /// The tally of `screen` (or the app), `nil` for a screen never seen.
  func tally(_ screen: String?) -> Tally? {
    guard let screen else { return app }
    return screenIndex[screen].map { screens[Int($0)].tally }
  }
}
