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
  private(set) var qualifiers: [DayQualifier.Key: DayQualifier] = [:]
  /// Tick of app time for scripted checks, in nanoseconds.
  let tick: Int64
  /// Whether listeners want a wake-up at every tick.
  let wantsTicks: Bool
  /// For each rule, whether its condition is a scripted check alone: all of those wake at
  /// the next tick, so `nextWake` need not visit them one by one.
  private let checkOnly: [Bool]

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
    for key in keys {
      var qualifier = DayQualifier(key: key)
      let tally = Self.tally(for: key.screen, in: accountant)
      for (day, nanos) in tally?.days ?? [:] where qualifier.qualifies(nanos) { qualifier.insert(day) }
      qualifiers[key] = qualifier
    }
  }

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
  var appDays: DayQualifier { qualifiers[Self.appDays] ?? DayQualifier(key: Self.appDays) }

  // MARK: Evaluation

  /// Updates day qualifiers with the days credited since the last call and unlocks every
  /// waiting rule whose condition holds at instant `m`.
  mutating func evaluate(at m: Int64, _ accountant: inout Accountant) -> [UnlockRecord] {
    let credited = accountant.takeCreditedDays()
    if !credited.isEmpty {
      // Every event while accruing credits today: skip days a qualifier has already, and
      // read the day's figure in place (copying a tally retains its dictionary).
      for index in qualifiers.indices {
        let qualifier = qualifiers.values[index]
        for day in credited where !qualifier.days.contains(day.ordinal) {
          if qualifier.qualifies(Self.nanos(of: qualifier.key.screen, on: day, in: accountant)) {
            qualifiers.values[index].insert(day)
          }
        }
      }
    }
    guard !waiting.isEmpty else { return [] }
    var context = Context(m: m, today: accountant.span(at: m).day)
    var reached: [Int] = []
    for ladder in waiting.ladders.indices {
      guard let figure = waiting.figure(of: ladder) else { continue }
      waiting.climb(ladder, to: Self.value(of: figure, accountant), into: &reached, examined: &examined)
    }
    var still: [Int] = []
    examined += waiting.others.count
    for index in waiting.others {
      if Self.holds(rules[index].condition, &context, accountant, qualifiers) {
        reached.append(index)
      } else {
        still.append(index)
      }
    }
    guard !reached.isEmpty else { return [] }
    if still.count != waiting.others.count { waiting.others = still }
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

  /// The figure's value now: what a ladder's thresholds are compared with.
  private static func value(of figure: RuleIndex.Figure, _ accountant: borrowing Accountant) -> Int64 {
    switch figure {
    case .app: return accountant.app.nanos
    case .screen(let name): return nanos(of: name, in: accountant)
    case .visits(let name): return Int64(accountant.screenIndex[name].map { accountant.screens[Int($0)].visits } ?? 0)
    case .sessions: return Int64(accountant.sessions)
    }
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
    var view: UsageView?
  }

  // Static, with the qualifiers passed in: as a method it made `evaluate` copy the whole book.
  private static func holds(
    _ condition: Condition, _ context: inout Context, _ accountant: borrowing Accountant,
    _ qualifiers: borrowing [DayQualifier.Key: DayQualifier]
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
      guard let qualifier = qualifiers[.init(screen: screen, minimum: minimum?.nanoseconds ?? 0)] else {
        return false
      }
      let provisional = provisionalDay(qualifier, context, accountant)
      let extra = provisional.map { qualifier.days.contains($0.ordinal) ? 0 : 1 } ?? 0
      return qualifier.count + extra >= n
    case .streak(let n, let minimum, let screen):
      guard let qualifier = qualifiers[.init(screen: screen, minimum: minimum?.nanoseconds ?? 0)] else {
        return false
      }
      let provisional = provisionalDay(qualifier, context, accountant)
      let longest = provisional.map { qualifier.longest(with: $0) } ?? qualifier.longest
      return longest >= n
    case .all(let parts):
      for part in parts where !holds(part, &context, accountant, qualifiers) { return false }
      return true
    case .any(let parts):
      for part in parts where holds(part, &context, accountant, qualifiers) { return true }
      return false
    case .check(let check):
      if context.view == nil {
        let appDays = qualifiers[Self.appDays] ?? DayQualifier(key: Self.appDays)
        context.view = makeView(at: context.m, accountant, today: context.today, appDays: appDays)
      }
      guard let view = context.view else { return false }
      return check.holds(view)
    }
  }

  /// A day with no minimum counts from the instant its subject starts accruing on it:
  /// the condition holds for every later instant, so it holds from this one.
  private static func provisionalDay(
    _ qualifier: DayQualifier, _ context: Context, _ accountant: borrowing Accountant
  ) -> Day? {
    guard qualifier.key.minimum == 0, isAccruing(qualifier.key.screen, accountant, context.m) else {
      return nil
    }
    return context.today
  }

  private static func isAccruing(_ screen: String?, _ accountant: borrowing Accountant, _ m: Int64) -> Bool {
    guard accountant.isAccruing(at: m) else { return false }
    guard let screen else { return true }
    return accountant.screenIndex[screen].map { accountant.screens[Int($0)].visible > 0 } ?? false
  }

  func makeView(at m: Int64, _ accountant: Accountant, today: Day) -> UsageView {
    Self.makeView(at: m, accountant, today: today, appDays: appDays)
  }

  private static func makeView(
    at m: Int64, _ accountant: borrowing Accountant, today: Day, appDays days: DayQualifier
  ) -> UsageView {
    UsageView(
      appSeconds: Double(accountant.app.nanos) / 1e9, sessions: accountant.sessions,
      activeDays: days.count, longestStreak: days.longest,
      currentStreak: days.current(endingOn: today),
      todaySeconds: Double(accountant.app.nanos(on: today)) / 1e9, today: today,
      hour: accountant.calendar.hour(of: accountant.wall(at: m)),
      instant: MonotonicInstant(nanoseconds: m), revision: accountant.revision, screens: accountant.screens,
      screenIndex: accountant.screenIndex)
  }

  // MARK: Wake-ups

  /// The earliest instant after `m` at which a waiting rule's condition could change,
  /// assuming no event comes first; `nil` when only an event can change anything.
  mutating func nextWake(after m: Int64, _ accountant: inout Accountant) -> Int64? {
    guard !waiting.isEmpty || wantsTicks, accountant.isAccruing(at: m) else { return nil }
    let span = accountant.span(at: m)
    var wake = Wake(m: m, deadline: accountant.idleDeadline, span: span)
    var anyCheck = false
    examined += waiting.ladders.count + waiting.others.count
    for ladder in waiting.ladders {
      guard let need = ladder.upcoming else { continue }
      switch ladder.figure {
      case .app: Self.visit(.appTime(.nanoseconds(need)), &wake, tick, accountant)
      case .screen(let name): Self.visit(.screenTime(name, .nanoseconds(need)), &wake, tick, accountant)
      case .visits, .sessions: continue
      }
    }
    for index in waiting.others {
      if checkOnly[index] {
        anyCheck = true
      } else {
        Self.visit(rules[index].condition, &wake, tick, accountant)
      }
    }
    if wantsTicks || anyCheck { wake.consider(m + (tick - accountant.app.nanos % tick)) }
    return wake.best == .max ? nil : wake.best
  }

  /// The earliest wake found so far, after `m` and by the idle deadline.
  private struct Wake {
    let m: Int64
    let deadline: Int64
    let span: (day: Day, start: Int64, end: Int64)
    var best: Int64 = .max

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
      let need = minimum?.nanoseconds ?? 0
      let have = nanos(of: screen, on: wake.span.day, in: accountant)
      if need > 0, have < need { wake.consider(m + (need - have)) }
    case .all(let parts), .any(let parts):
      for part in parts { visit(part, &wake, tick, accountant) }
    case .check:
      let have = accountant.app.nanos
      wake.consider(m + (tick - have % tick))
    case .visits, .sessions:
      return
    }
  }
}

extension Condition {
  package var containsCheck: Bool {
    switch self {
    case .check: return true
    case .all(let parts), .any(let parts): return parts.contains { $0.containsCheck }
    default: return false
    }
  }

  func collectDayKeys(into keys: inout Set<DayQualifier.Key>) {
    switch self {
    case .activeDays(_, let minimum, let screen), .streak(_, let minimum, let screen):
      keys.insert(.init(screen: screen, minimum: minimum?.nanoseconds ?? 0))
    case .all(let parts), .any(let parts):
      for part in parts { part.collectDayKeys(into: &keys) }
    default: break
    }
  }
}
