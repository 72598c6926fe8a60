/// The rules in force and their state: which unlocked when, which days qualify.
///
/// Owned by the engine behind its state lock, next to the ``Accountant``.
struct RuleBook {
  private(set) var rules: [Rule]
  private(set) var unlocked: [String: UnlockRecord] = [:]
  /// The rules not yet unlocked: on their figure's ladder, or evaluated one by one.
  private var waiting: RuleIndex
  /// Rules (or ladders) looked at by evaluations and wake-up searches so far: what a
  /// wake-up costs, counted (for tests).
  private(set) var examined = 0
  /// The day qualifiers, updated in place (an array: a dictionary's values are copied,
  /// sets and all, to be changed), and where each key's sits.
  private var qualifiers: [DayQualifier] = []
  private let qualifierSlots: [DayQualifier.Key: Int]
  /// Where the qualifier of app active days sits (there always is one: views need it).
  private let appSlot: Int
  /// Tick of app time for scripted checks, in nanoseconds.
  let tick: Int64
  /// Whether listeners want a wake-up at every tick.
  let wantsTicks: Bool
  /// For each rule, whether its condition is a scripted check alone: all of those wake at
  /// the next tick, so `nextWake` need not visit them one by one.
  private let checkOnly: [Bool]
  /// The last wake-up search, reused while only time passes (see ``nextWake(after:_:)``).
  private var lastSearch: Search?

  static let appDays = DayQualifier.Key(screen: nil, minimum: 0)

  init(rules: [Rule], unlocked: [UnlockRecord], tick: Int64, wantsTicks: Bool = false, accountant: Accountant) {
    self.rules = rules
    self.tick = max(tick, 1_000_000)
    self.wantsTicks = wantsTicks
    checkOnly = rules.map {
      if case .check = $0.condition { return true }
      return false
    }
    for record in unlocked { self.unlocked[record.rule] = record }
    let unlockedIDs = Set(unlocked.map(\.rule))
    waiting = RuleIndex(rules: rules, waiting: rules.indices.filter { !unlockedIDs.contains(rules[$0].id) })
    var keys: Set<DayQualifier.Key> = [Self.appDays]
    for rule in rules { rule.condition.collectDayKeys(into: &keys) }
    var slots: [DayQualifier.Key: Int] = [:]
    for key in keys {
      var qualifier = DayQualifier(key: key)
      let tally = Self.tally(for: key.screen, in: accountant)
      for (day, nanos) in tally?.days ?? [:] where qualifier.qualifies(nanos) { qualifier.insert(day) }
      slots[key] = qualifiers.count
      qualifiers.append(qualifier)
    }
    qualifierSlots = slots
    appSlot = slots[Self.appDays] ?? 0
  }

  /// The qualifier of days for `key`, if a rule asks about them.
  func qualifier(_ key: DayQualifier.Key) -> DayQualifier? { qualifierSlots[key].map { qualifiers[$0] } }

  private static func tally(for screen: String?, in accountant: Accountant) -> Tally? {
    guard let screen else { return accountant.app }
    return accountant.screenIndex[screen].map { accountant.screens[Int($0)].tally }
  }

  /// All-time nanoseconds of the app (`nil`) or a screen, without copying its tally.
  private static func nanos(of screen: String?, in accountant: borrowing Accountant) -> Int64 {
    guard let screen else { return accountant.app.nanos }
    guard let index = accountant.screenIndex[screen] else { return 0 }
    return accountant.screens[Int(index)].tally.nanos
  }

  /// Nanoseconds of the app (`nil`) or a screen on `day`, without copying its tally.
  private static func nanos(of screen: String?, on day: Day, in accountant: borrowing Accountant) -> Int64 {
    guard let screen else { return accountant.app.nanos(on: day) }
    guard let index = accountant.screenIndex[screen] else { return 0 }
    return accountant.screens[Int(index)].tally.nanos(on: day)
  }

  /// The qualifier of app active days (any time above zero).
  var appDays: DayQualifier { qualifiers[appSlot] }

  // MARK: Evaluation

  /// Updates day qualifiers with the days credited since the last call and unlocks every
  /// waiting rule whose condition holds at instant `m`.
  mutating func evaluate(at m: Int64, _ accountant: inout Accountant) -> [UnlockRecord] {
    if !accountant.creditedDays.isEmpty {
      // Every event while accruing credits today, which most qualifiers have already:
      // they say so without hashing, and nothing is copied or allocated here.
      for index in qualifiers.indices {
        for day in accountant.creditedDays where qualifiers[index].lacks(day) {
          let nanos = Self.nanos(of: qualifiers[index].key.screen, on: day, in: accountant)
          if qualifiers[index].qualifies(nanos) { qualifiers[index].insert(day) }
        }
      }
      accountant.clearCreditedDays()
    }
    guard !waiting.isEmpty else { return [] }
    var context = Context(m: m, today: accountant.span(at: m).day, appSlot: appSlot)
    var reached: [Int] = []
    for ladder in waiting.ladders.indices where waiting.hasRungs(ladder) {
      waiting.climb(ladder, to: waiting.value(of: ladder, accountant), into: &reached, examined: &examined)
    }
    let climbed = reached.count
    examined += waiting.others.count
    for index in waiting.others
    where Self.holds(rules[index].condition, &context, accountant, slots: qualifierSlots, qualifiers) {
      reached.append(index)
    }
    if reached.count > climbed {
      let held = reached[climbed...]
      waiting.others.removeAll { held.contains($0) }
    }
    guard !reached.isEmpty else { return [] }
    var records: [UnlockRecord] = []
    for index in reached.sorted() where unlocked[rules[index].id] == nil {
      let rule = rules[index]
      let record = UnlockRecord(
        rule: rule.id, mono: MonotonicInstant(nanoseconds: m), boot: accountant.boot,
        wall: accountant.wall(at: m), points: rule.points, title: rule.title)
      unlocked[rule.id] = record
      records.append(record)
    }
    return records
  }

  /// Unlocks rule `id` now, at a listener's request. `nil` if it was already unlocked.
  mutating func unlock(_ id: String, at m: Int64, _ accountant: Accountant) -> UnlockRecord? {
    guard unlocked[id] == nil else { return nil }
    let rule = rules.first { $0.id == id }
    let record = UnlockRecord(
      rule: id, mono: MonotonicInstant(nanoseconds: m), boot: accountant.boot, wall: accountant.wall(at: m),
      points: rule?.points ?? 0, title: rule?.title)
    unlocked[id] = record
    waiting.others.removeAll { rules[$0].id == id }  // on a ladder, it is skipped as unlocked
    return record
  }

  /// Whether `m` is a whole tick of app time (for listeners' `tick`).
  func isTick(_ accountant: Accountant) -> Bool {
    wantsTicks && accountant.app.nanos > 0 && accountant.app.nanos % tick == 0
  }

  /// What one evaluation shares between rules. The accountant is passed beside it, never
  /// stored: a copy of it costs a retain and a release of each of its collections.
  private struct Context {
    let m: Int64
    let today: Day
    let appSlot: Int
    var view: UsageView?
  }

  // Static, with the qualifiers passed in: as a method it made `evaluate` copy the whole book.
  private static func holds(
    _ condition: Condition, _ context: inout Context, _ accountant: borrowing Accountant,
    slots: borrowing [DayQualifier.Key: Int], _ qualifiers: borrowing [DayQualifier]
  ) -> Bool {
    switch condition {
    case .appTime(let d):
      return accountant.app.nanos >= d.nanoseconds
    case .screenTime(let name, let d):
      return Self.nanos(of: name, in: accountant) >= d.nanoseconds
    case .visits(let name, let n):
      return (accountant.screenIndex[name].map { accountant.screens[Int($0)].visits } ?? 0) >= n
    case .sessions(let n):
      return accountant.sessions >= n
    case .activeDays(let n, let minimum, let screen):
      guard let slot = qualifiers.slot(screen: screen, minimum: minimum?.nanoseconds ?? 0, slots) else {
        return false
      }
      return qualifiers[slot].count >= n
    case .streak(let n, let minimum, let screen):
      guard let slot = qualifiers.slot(screen: screen, minimum: minimum?.nanoseconds ?? 0, slots) else {
        return false
      }
      return qualifiers[slot].longest >= n
    case .all(let parts):
      for part in parts where !holds(part, &context, accountant, slots: slots, qualifiers) { return false }
      return true
    case .any(let parts):
      for part in parts where holds(part, &context, accountant, slots: slots, qualifiers) { return true }
      return false
    case .check(let check):
      if context.view == nil {
        context.view = makeView(at: context.m, accountant, today: context.today, appDays: qualifiers, context.appSlot)
      }
      guard let view = context.view else { return false }
      return check.check.holds(view)
    }
  }

  private static func isAccruing(_ screen: String?, _ accountant: borrowing Accountant, _ m: Int64) -> Bool {
    guard accountant.isAccruing(at: m) else { return false }
    guard let screen else { return true }
    return accountant.screenIndex[screen].map { accountant.screens[Int($0)].visible > 0 } ?? false
  }

  func makeView(at m: Int64, _ accountant: Accountant, today: Day) -> UsageView {
    Self.makeView(at: m, accountant, today: today, appDays: qualifiers, appSlot)
  }

  /// The view at `m`, the app's days read in place from `qualifiers[slot]` (not copied).
  private static func makeView(
    at m: Int64, _ accountant: borrowing Accountant, today: Day, appDays qualifiers: borrowing [DayQualifier],
    _ slot: Int
  ) -> UsageView {
    UsageView(
      appSeconds: Double(accountant.app.nanos) / 1e9, sessions: accountant.sessions,
      activeDays: qualifiers[slot].count, longestStreak: qualifiers[slot].longest,
      currentStreak: qualifiers[slot].current(endingOn: today),
      todaySeconds: Double(accountant.app.nanos(on: today)) / 1e9, today: today,
      hour: accountant.calendar.hour(of: accountant.wall(at: m)),
      instant: MonotonicInstant(nanoseconds: m), revision: accountant.revision, screens: accountant.screens,
      screenIndex: accountant.screenIndex)
  }

  // MARK: Wake-ups

  /// The earliest instant after `m` at which a waiting rule's condition could change,
  /// assuming no event comes first; `nil` when only an event can change anything.
  ///
  /// Between events and unlocks, only time passes: every figure a wake-up waits for then
  /// grows with the clock, so the instant found stays the one until it is reached, and the
  /// rules are searched again only after an event, an unlock or the instant found; the
  /// tick's wake-up (for checks and tick listeners) is reckoned afresh every time.
  mutating func nextWake(after m: Int64, _ accountant: inout Accountant) -> Int64? {
    guard !waiting.isEmpty || wantsTicks, accountant.isAccruing(at: m) else { return nil }
    let shape = (changes: accountant.revision &- accountant.credits, unlocked.count, accountant.idleDeadline)
    if lastSearch.map({ $0.shape != shape || m < $0.from || m >= $0.best }) ?? true {
      lastSearch = search(after: m, &accountant, shape)
    }
    guard let found = lastSearch else { return nil }
    var best = found.best
    if found.ticks || (found.checks && checksChangeWithTime) {
      let tickWake = m + (tick - accountant.app.nanos % tick)
      if tickWake <= accountant.idleDeadline, tickWake < best { best = tickWake }
    }
    return best == .max ? nil : best
  }

  /// The earliest wake-up after `m` but the tick's, and whether the tick's counts.
  private mutating func search(
    after m: Int64, _ accountant: inout Accountant, _ shape: (UInt64, Int, Int64)
  ) -> Search {
    let span = accountant.span(at: m)
    var wake = Wake(m: m, deadline: accountant.idleDeadline, span: span)
    var anyCheck = false
    examined += waiting.ladders.count + waiting.others.count
    for ladder in waiting.ladders.indices {
      // Only time grows by itself: the app's (accruing, checked above) or a visible screen's.
      guard let need = waiting.ladders[ladder].upcoming else { continue }
      let have: Int64
      switch waiting.ladders[ladder].figure {
      case .app: have = accountant.app.nanos
      case .screen:
        guard let slot = waiting.screen(of: ladder, accountant), accountant.screens[Int(slot)].visible > 0 else {
          continue
        }
        have = accountant.screens[Int(slot)].tally.nanos
      case .visits, .sessions: continue
      }
      if have < need { wake.consider(m + (need - have)) }
    }
    for index in waiting.others {
      if checkOnly[index] {
        anyCheck = true
      } else {
        Self.visit(rules[index].condition, &wake, tick, accountant)
      }
    }
    if anyCheck { wake.consider(span.end) }  // the date changes at midnight
    return Search(shape: shape, from: m, best: wake.best, ticks: wantsTicks || wake.ticks, checks: anyCheck)
  }

  /// Whether a waiting rule that is a scripted check alone may answer otherwise with time
  /// alone (``RuleCheck/changesWithTime``): asked afresh at each search for a wake-up, since
  /// a check's last run says it.
  private var checksChangeWithTime: Bool {
    waiting.others.contains { index in
      guard checkOnly[index], case .check(let scripted) = rules[index].condition else { return false }
      return scripted.check.changesWithTime
    }
  }

  /// A search from `from`: the earliest wake-up but the tick's (`.max`: none), whether the
  /// tick's counts too, and what the result depends on: the accountant's changes other than
  /// time credited, the unlocks, and the idle deadline.
  private struct Search {
    var shape: (changes: UInt64, unlocked: Int, deadline: Int64)
    var from: Int64
    var best: Int64
    var ticks: Bool
    /// Whether a rule that is a scripted check alone waits (then the tick's wake-up counts
    /// if one of them changes with time).
    var checks: Bool
  }

  /// The earliest wake found so far, after `m` and by the idle deadline.
  private struct Wake {
    let m: Int64
    let deadline: Int64
    let span: (day: Day, start: Int64, end: Int64)
    var best: Int64 = .max
    /// Whether a scripted check asked for the tick's wake-up.
    var ticks = false

    mutating func consider(_ candidate: Int64) {
      if candidate > m, candidate <= deadline, candidate < best { best = candidate }
    }
  }

  // Static, with the accountant borrowed: a nested function capturing it copied it.
  private static func visit(
    _ condition: Condition, _ wake: inout Wake, _ tick: Int64, _ accountant: borrowing Accountant
  ) {
    let m = wake.m
    switch condition {
    case .appTime(let d):
      let have = accountant.app.nanos
      if have < d.nanoseconds { wake.consider(m + (d.nanoseconds - have)) }
    case .screenTime(let name, let d):
      guard isAccruing(name, accountant, m) else { return }
      let have = nanos(of: name, in: accountant)
      if have < d.nanoseconds { wake.consider(m + (d.nanoseconds - have)) }
    case .activeDays(_, let minimum, let screen), .streak(_, let minimum, let screen):
      guard isAccruing(screen, accountant, m) else { return }
      wake.consider(wake.span.end)
      // A day counts once its subject accrued the minimum on it, or, with none, more than
      // zero: an instant after the accrual starts (an `active` undone at the same instant
      // makes no active day).
      let need = max(minimum?.nanoseconds ?? 0, 1)
      let have = nanos(of: screen, on: wake.span.day, in: accountant)
      if have < need { wake.consider(m + (need - have)) }
    case .all(let parts), .any(let parts):
      for part in parts { visit(part, &wake, tick, accountant) }
    case .check:
      wake.ticks = true
    case .visits, .sessions:
      return
    }
  }
}
