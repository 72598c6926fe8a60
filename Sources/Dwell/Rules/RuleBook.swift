/// The rules in force and their state: which unlocked when, which days qualify.
///
/// Owned by the engine behind its state lock, next to the ``Accountant``.
struct RuleBook {
  private(set) var rules: [Rule]
  private(set) var unlocked: [String: UnlockRecord] = [:]
  /// Every earning of a recurring rule, oldest first, and the earnings' keys (rule and period).
  var earnings: [UnlockRecord] = []
  var earned = Set<String>()
  /// Indexes of the recurring rules (a rule made with `every:`): evaluated at every evaluation, never on a ladder.
  let recurring: [Int]
  /// The `within` parts of waiting rules met in some period (``Context/latchKey(_:)``):
  /// such a part holds for good once one period's figure met it.
  var latches = Set<Int>()
  /// Whether a rule needs another (`unlocked`): an evaluation then goes on while rules unlock.
  private let hasGates: Bool
  /// The rules not yet unlocked: on their figure's ladder, or evaluated one by one.
  var waiting: RuleIndex
  /// Rules (or ladders) looked at by evaluations and wake-up searches so far: what a
  /// wake-up costs, counted (for tests).
  var examined = 0
  /// The day qualifiers, updated in place (an array: a dictionary's values are copied,
  /// sets and all, to be changed), and where each key's sits.
  var qualifiers: [DayQualifier] = []
  let qualifierSlots: [DayQualifier.Key: Int]
  /// Where the qualifier of app active days sits (there always is one: views need it).
  let appSlot: Int
  /// Tick of app time for scripted checks, in nanoseconds.
  let tick: Int64
  /// Whether listeners want a wake-up at every tick.
  let wantsTicks: Bool
  /// For each rule, whether its condition is a scripted check alone: all of those wake at
  /// the next tick, so `nextWake` need not visit them one by one.
  private let checkOnly: [Bool]
  /// Progress plugins reported for rules not unlocked yet, by rule id (``RuleBook+Reported``).
  var reported: [String: RuleProgress] = [:]
  /// The last wake-up search, reused while only time passes (see ``nextWake(after:_:)``).
  private var lastSearch: Search?
  /// The levels, lowest first, and each level's points by name (``Condition/level(_:)``).
  let levels: [Level]
  let levelPoints: [String: Int]
  /// The points of the unlocked rules and of the earnings (kept up to date, not summed at
  /// each evaluation), and how many of `levels` were reached when last looked (`level_up`).
  var rulePoints = 0
  var levelsReached = 0
  /// Whether a rule counts points (`points`, `level`): awards then evaluate the rules again.
  let countsPoints: Bool
  /// The events that can make a rule hold that waited when the book was made: what the
  /// recording thread wakes the writer for (``EventInterest``). Not narrowed as rules
  /// unlock (an unlock costs no pass over the others): a screen no rule waits for any more
  /// only wakes the writer, at most once a drain, until the rules change or the next launch.
  let interest: EventInterest

  static let appDays = DayQualifier.Key(screen: nil, minimum: 0)

  init(
    rules: [Rule], unlocked: [UnlockRecord], earnings: [UnlockRecord] = [], tick: Int64, wantsTicks: Bool = false,
    levels: [Level] = [], accountant: Accountant
  ) {
    self.rules = rules
    self.earnings = earnings
    earned = Set(earnings.map(\.announcementKey))
    recurring = rules.indices.filter { rules[$0].every != nil }
    hasGates = rules.contains { $0.condition.containsGate }
    countsPoints = rules.contains { $0.condition.containsPoints }
    (self.levels, levelPoints) = Self.levelTable(levels)
    self.tick = max(tick, 1_000_000)
    self.wantsTicks = wantsTicks
    checkOnly = rules.map {
      if case .check = $0.condition { return true }
      return false
    }
    for record in unlocked { self.unlocked[record.rule] = record }
    for record in self.unlocked.values { rulePoints.addSaturating(record.points) }
    for record in earnings { rulePoints.addSaturating(record.points) }
    let unlockedIDs = Set(unlocked.map(\.rule))
    interest = EventInterest(rules.lazy.filter { $0.every != nil || !unlockedIDs.contains($0.id) }.map(\.condition))
    waiting = RuleIndex(
      rules: rules, waiting: rules.indices.filter { rules[$0].every == nil && !unlockedIDs.contains(rules[$0].id) })
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
    latchPastPeriods(accountant)
    levelsReached = self.levels.count(where: { $0.points <= points(accountant) })
  }

  /// The qualifier of days for `key`, if a rule asks about them.
  func qualifier(_ key: DayQualifier.Key) -> DayQualifier? { qualifierSlots[key].map { qualifiers[$0] } }

  private static func tally(for screen: String?, in accountant: Accountant) -> Tally? {
    guard let screen else { return accountant.app }
    return accountant.screenIndex[screen].map { accountant.screens[Int($0)].tally }
  }

  /// All-time nanoseconds of the app (`nil`) or a screen, without copying its tally.
  static func nanos(of screen: String?, in accountant: borrowing Accountant) -> Int64 {
    guard let screen else { return accountant.app.nanos }
    guard let index = accountant.screenIndex[screen] else { return 0 }
    return accountant.screens[Int(index)].tally.nanos
  }

  /// Nanoseconds of the app (`nil`) or a screen on `day`, without copying its tally.
  static func nanos(of screen: String?, on day: Day, in accountant: borrowing Accountant) -> Int64 {
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
    guard !waiting.isEmpty || !recurring.isEmpty else { return [] }
    let span = accountant.span(at: m)
    // The unlocked rules are moved into the context for the gates and moved back before
    // any is added: a copy held by the context made each unlock copy them all (40,000
    // rules unlocking one after another: 40,000 copies of up to 40,000 records).
    var context = Context(m: m, today: span.day, appSlot: appSlot, dayStart: m == span.start)
    swap(&context.unlocked, &unlocked)
    var movedBack = false
    defer { if !movedBack { swap(&context.unlocked, &unlocked) } }
    swap(&context.latches, &latches)
    defer { swap(&context.latches, &latches) }
    // Recurring earnings first: their points count toward `points` at this instant.
    var records: [UnlockRecord] = []
    if !recurring.isEmpty { records = earn(at: m, &context, accountant) }
    if countsPoints { context.preparePoints(points(accountant), levelPoints) }
    var reached: [Int] = []
    for ladder in waiting.ladders.indices where waiting.hasRungs(ladder) {
      waiting.climb(ladder, to: waiting.value(of: ladder, accountant), into: &reached, examined: &examined)
    }
    let climbed = reached.count
    if hasGates { for index in reached { context.reach(rules[index], context.unlocked[rules[index].id] == nil) } }
    // With gates, again while rules unlock: a rule may need one that unlocked just now.
    var from = climbed
    repeat {
      from = reached.count
      examined += waiting.others.count
      for index in waiting.others where !reached[climbed...].contains(index) {
        context.rule = index
        context.window = rules[index].range
        if Self.holds(rules[index].condition, &context, accountant, slots: qualifierSlots, qualifiers, node: 0) {
          reached.append(index)
          if hasGates { context.reach(rules[index], context.unlocked[rules[index].id] == nil) }
        }
      }
    } while hasGates && reached.count > from
    if reached.count > climbed {
      let held = reached[climbed...]
      waiting.others.removeAll { held.contains($0) }
    }
    swap(&context.unlocked, &unlocked)
    movedBack = true
    guard !reached.isEmpty else { return records }
    for index in reached.sorted() where unlocked[rules[index].id] == nil {
      let rule = rules[index]
      let record = UnlockRecord(
        rule: rule.id, mono: MonotonicInstant(nanoseconds: m), boot: accountant.boot,
        wall: accountant.wall(at: m), points: rule.points, title: rule.title)
      unlocked[rule.id] = record
      rulePoints.addSaturating(record.points)
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
    rulePoints.addSaturating(record.points)
    waiting.others.removeAll { rules[$0].id == id }  // on a ladder, it is skipped as unlocked
    return record
  }

  /// Whether `m` is a whole tick of app time (for listeners' `tick`).
  func isTick(_ accountant: Accountant) -> Bool {
    wantsTicks && accountant.app.nanos > 0 && accountant.app.nanos % tick == 0
  }

  func makeView(at m: Int64, _ accountant: Accountant, today: Day) -> UsageFigures {
    Self.makeView(at: m, accountant, today: today, appDays: qualifiers, appSlot)
  }

  /// The view at `m`, the app's days read in place from `qualifiers[slot]` (not copied).
  static func makeView(
    at m: Int64, _ accountant: borrowing Accountant, today: Day, appDays qualifiers: borrowing [DayQualifier],
    _ slot: Int
  ) -> UsageFigures {
    UsageFigures(
      appSeconds: Double(accountant.app.nanos) / 1e9, sessions: accountant.sessions,
      activeDays: qualifiers[slot].count, longestStreak: qualifiers[slot].longest,
      currentStreak: qualifiers[slot].current(endingOn: today),
      todaySeconds: Double(accountant.app.nanos(on: today)) / 1e9, today: today,
      hour: accountant.calendar.hour(of: accountant.wall(at: m)),
      instant: MonotonicInstant(nanoseconds: m), revision: accountant.revision, screens: accountant.screens,
      screenIndex: accountant.screenIndex, actions: accountant.actions, app: accountant.app,
      sessionDays: accountant.sessionDays)
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
    guard !waiting.isEmpty || !recurring.isEmpty || wantsTicks, accountant.isAccruing(at: m) else { return nil }
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
        Self.visit(rules[index].condition, &wake, tick, accountant, window: rules[index].range)
      }
    }
    visitRecurring(&wake, accountant)
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

}
