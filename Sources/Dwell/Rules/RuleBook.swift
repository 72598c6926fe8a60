/// The rules in force and their state: which unlocked when, which days qualify.
///
/// Owned by the engine behind its state lock, next to the ``Accountant``.
struct RuleBook {
  private(set) var rules: [Rule]
  private(set) var unlocked: [String: UnlockRecord] = [:]
  /// Indexes into `rules` of the rules not yet unlocked.
  private var waiting: [Int]
  private(set) var qualifiers: [DayQualifier.Key: DayQualifier] = [:]
  /// Tick of app time for scripted checks, in nanoseconds.
  let tick: Int64
  /// Whether listeners want a wake-up at every tick.
  let wantsTicks: Bool

  static let appDays = DayQualifier.Key(screen: nil, minimum: 0)

  init(rules: [Rule], unlocked: [UnlockRecord], tick: Int64, wantsTicks: Bool = false, accountant: Accountant) {
    self.rules = rules
    self.tick = max(tick, 1_000_000)
    self.wantsTicks = wantsTicks
    for record in unlocked { self.unlocked[record.rule] = record }
    waiting = rules.indices.filter { [unlockedIDs = Set(unlocked.map(\.rule))] in
      !unlockedIDs.contains(rules[$0].id)
    }
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

  /// The qualifier of app active days (any time above zero).
  var appDays: DayQualifier { qualifiers[Self.appDays] ?? DayQualifier(key: Self.appDays) }

  // MARK: Evaluation

  /// Updates day qualifiers with the days credited since the last call and unlocks every
  /// waiting rule whose condition holds at instant `m`.
  mutating func evaluate(at m: Int64, _ accountant: inout Accountant) -> [UnlockRecord] {
    let credited = accountant.takeCreditedDays()
    if !credited.isEmpty {
      for key in Array(qualifiers.keys) {
        guard let tally = Self.tally(for: key.screen, in: accountant) else { continue }
        for day in credited where qualifiers[key]?.qualifies(tally.nanos(on: day)) == true {
          qualifiers[key]?.insert(day)
        }
      }
    }
    guard !waiting.isEmpty else { return [] }
    var context = Context(m: m, accountant: accountant, today: accountant.span(at: m).day)
    var records: [UnlockRecord] = []
    var still: [Int] = []
    for index in waiting {
      let rule = rules[index]
      guard holds(rule.condition, &context) else {
        still.append(index)
        continue
      }
      let record = UnlockRecord(
        rule: rule.id, mono: MonotonicInstant(nanoseconds: m), boot: accountant.boot,
        wall: accountant.wall(at: m), points: rule.points)
      unlocked[rule.id] = record
      records.append(record)
    }
    if !records.isEmpty { waiting = still }
    return records
  }

  /// Unlocks rule `id` now, at a listener's request. `nil` if it was already unlocked.
  mutating func unlock(_ id: String, at m: Int64, _ accountant: Accountant) -> UnlockRecord? {
    guard unlocked[id] == nil else { return nil }
    let points = rules.first { $0.id == id }?.points ?? 0
    let record = UnlockRecord(
      rule: id, mono: MonotonicInstant(nanoseconds: m), boot: accountant.boot, wall: accountant.wall(at: m),
      points: points)
    unlocked[id] = record
    waiting.removeAll { rules[$0].id == id }
    return record
  }

  /// Whether `m` is a whole tick of app time (for listeners' `tick`).
  func isTick(_ accountant: Accountant) -> Bool {
    wantsTicks && accountant.app.nanos > 0 && accountant.app.nanos % tick == 0
  }

  private struct Context {
    let m: Int64
    let accountant: Accountant
    let today: Day
    var view: UsageView?
  }

  private func holds(_ condition: Condition, _ context: inout Context) -> Bool {
    let accountant = context.accountant
    switch condition {
    case .appTime(let d):
      return accountant.app.nanos >= d.nanoseconds
    case .screenTime(let name, let d):
      return (Self.tally(for: name, in: accountant)?.nanos ?? 0) >= d.nanoseconds
    case .visits(let name, let n):
      return (accountant.screenIndex[name].map { accountant.screens[Int($0)].visits } ?? 0) >= n
    case .sessions(let n):
      return accountant.sessions >= n
    case .activeDays(let n, let minimum, let screen):
      guard let qualifier = qualifiers[.init(screen: screen, minimum: minimum?.nanoseconds ?? 0)] else {
        return false
      }
      let provisional = provisionalDay(qualifier, context)
      let extra = provisional.map { qualifier.days.contains($0.ordinal) ? 0 : 1 } ?? 0
      return qualifier.count + extra >= n
    case .streak(let n, let minimum, let screen):
      guard let qualifier = qualifiers[.init(screen: screen, minimum: minimum?.nanoseconds ?? 0)] else {
        return false
      }
      let longest = provisionalDay(qualifier, context).map { qualifier.longest(with: $0) } ?? qualifier.longest
      return longest >= n
    case .all(let parts):
      for part in parts where !holds(part, &context) { return false }
      return true
    case .any(let parts):
      for part in parts where holds(part, &context) { return true }
      return false
    case .check(let check):
      if context.view == nil { context.view = makeView(at: context.m, accountant, today: context.today) }
      guard let view = context.view else { return false }
      return check.holds(view)
    }
  }

  /// A day with no minimum counts from the instant its subject starts accruing on it:
  /// the condition holds for every later instant, so it holds from this one.
  private func provisionalDay(_ qualifier: DayQualifier, _ context: Context) -> Day? {
    guard qualifier.key.minimum == 0, isAccruing(qualifier.key.screen, context.accountant, context.m) else {
      return nil
    }
    return context.today
  }

  private func isAccruing(_ screen: String?, _ accountant: Accountant, _ m: Int64) -> Bool {
    guard accountant.isAccruing(at: m) else { return false }
    guard let screen else { return true }
    return accountant.screenIndex[screen].map { accountant.screens[Int($0)].visible > 0 } ?? false
  }

  func makeView(at m: Int64, _ accountant: Accountant, today: Day) -> UsageView {
    let days = appDays
    return UsageView(
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
  func nextWake(after m: Int64, _ accountant: inout Accountant) -> Int64? {
    guard !waiting.isEmpty || wantsTicks, accountant.isAccruing(at: m) else { return nil }
    let deadline = accountant.idleDeadline
    let span = accountant.span(at: m)
    var best: Int64 = .max
    func consider(_ candidate: Int64) {
      if candidate > m, candidate <= deadline, candidate < best { best = candidate }
    }
    func visit(_ condition: Condition) {
      switch condition {
      case .appTime(let d):
        let have = accountant.app.nanos
        if have < d.nanoseconds { consider(m + (d.nanoseconds - have)) }
      case .screenTime(let name, let d):
        guard isAccruing(name, accountant, m), let tally = Self.tally(for: name, in: accountant) else { return }
        if tally.nanos < d.nanoseconds { consider(m + (d.nanoseconds - tally.nanos)) }
      case .activeDays(_, let minimum, let screen), .streak(_, let minimum, let screen):
        guard isAccruing(screen, accountant, m) else { return }
        consider(span.end)
        let need = minimum?.nanoseconds ?? 0
        let have = Self.tally(for: screen, in: accountant)?.nanos(on: span.day) ?? 0
        if need > 0, have < need { consider(m + (need - have)) }
      case .all(let parts), .any(let parts):
        parts.forEach(visit)
      case .check:
        let have = accountant.app.nanos
        consider(m + (tick - have % tick))
      case .visits, .sessions:
        return
      }
    }
    for index in waiting { visit(rules[index].condition) }
    if wantsTicks { consider(m + (tick - accountant.app.nanos % tick)) }
    return best == .max ? nil : best
  }
}

extension Condition {
  var containsCheck: Bool {
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
