/// How the rule book evaluates a condition at an instant, and finds the next instant it
/// could change: whole figures, or figures within the days of a rule's dates (`from`/`to`),
/// of a calendar period (`within`, a recurring rule's `every`), or both.
extension RuleBook {
  /// What one evaluation shares between rules. The accountant is passed beside it, never
  /// stored: a copy of it costs a retain and a release of each of its collections.
  struct Context {
    let m: Int64
    let today: Day
    let appSlot: Int
    var view: UsageFigures?
    /// Whether `m` is the first instant of `today`: a `within` part then also looks at
    /// the period of the day that just ended (time credited up to `m` is in it).
    var dayStart = false
    /// The rules unlocked before this evaluation, and those unlocked during it.
    var unlocked: [String: UnlockRecord]
    var fresh = Set<String>()
    /// The rule evaluated, and the days whose figures count for it (`nil`: all).
    var rule = 0
    var window: ClosedRange<Day>?
    /// The `within` parts met so far (the book's, moved here for the evaluation).
    var latches = Set<Int>()
    /// The points total, with those of the rules unlocked during the evaluation, and the
    /// levels' points by name (set only when a rule counts points).
    var points = 0
    var levelPoints: [String: Int] = [:]
    /// While a recurring rule is evaluated, the days of its current period (its checks' `period…` figures).
    var period: ClosedRange<Day>?

    init(m: Int64, today: Day, appSlot: Int, dayStart: Bool = false, unlocked: [String: UnlockRecord] = [:]) {
      self.m = m
      self.today = today
      self.appSlot = appSlot
      self.dayStart = dayStart
      self.unlocked = unlocked
    }

    /// The key of part `node` (its place in the rule's condition, depth first) of the rule evaluated.
    func latchKey(_ node: Int) -> Int { Self.latchKey(rule: rule, node: node) }

    /// The key of part `node` of rule `rule` (an index in the book's rules).
    static func latchKey(rule: Int, node: Int) -> Int { rule &<< 20 | (node & 0xFFFFF) }
  }

  // Static, with the qualifiers passed in: as a method it made `evaluate` copy the whole book.
  static func holds(
    _ condition: Condition, _ context: inout Context, _ accountant: borrowing Accountant,
    slots: borrowing [DayQualifier.Key: Int], _ qualifiers: borrowing [DayQualifier], node: Int
  ) -> Bool {
    if let window = context.window, condition.isFigure {
      return PeriodFigures.holds(condition, in: window, accountant, slots: slots, qualifiers)
    }
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
    case .actions, .actionDays, .actionStreak:
      return PeriodFigures.holds(condition, in: nil, accountant, slots: slots, qualifiers)
    case .unlocked(let id):
      return context.unlocked[id] != nil || context.fresh.contains(id)
    case .points(let n):
      return context.points >= n
    case .level(let name):
      return context.levelPoints[name].map { context.points >= $0 } ?? false
    case .within(let period, let inner):
      let key = context.latchKey(node)
      if context.latches.contains(key) { return true }
      let outer = context.window
      defer { context.window = outer }
      for day in context.dayStart ? [context.today.adding(days: -1), context.today] : [context.today] {
        guard let window = PeriodFigures.intersect(period.days(containing: day), outer) else { continue }
        context.window = window
        if holds(inner, &context, accountant, slots: slots, qualifiers, node: node + 1) {
          context.latches.insert(key)
          return true
        }
      }
      return false
    case .all(let parts):
      var child = node + 1
      for part in parts {
        if !holds(part, &context, accountant, slots: slots, qualifiers, node: child) { return false }
        child += part.nodeCount
      }
      return true
    case .any(let parts):
      var child = node + 1
      for part in parts {
        if holds(part, &context, accountant, slots: slots, qualifiers, node: child) { return true }
        child += part.nodeCount
      }
      return false
    case .check(let check):
      if let period = context.period {
        // A recurring rule's check: its own view, with the period's figures.
        var view = makeView(at: context.m, accountant, today: context.today, appDays: qualifiers, context.appSlot)
        view.period = period
        return check.check.holds(view)
      }
      if context.view == nil {
        context.view = makeView(at: context.m, accountant, today: context.today, appDays: qualifiers, context.appSlot)
      }
      guard let view = context.view else { return false }
      return check.check.holds(view)
    }
  }

  static func isAccruing(_ screen: String?, _ accountant: borrowing Accountant, _ m: Int64) -> Bool {
    guard accountant.isAccruing(at: m) else { return false }
    guard let screen else { return true }
    return accountant.screenIndex[screen].map { accountant.screens[Int($0)].visible > 0 } ?? false
  }

  /// The earliest wake found so far, after `m` and by the idle deadline.
  struct Wake {
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
  /// Considers when `condition` could next change, counting the days of `window` only
  /// (`nil`: all): a figure within days changes at midnight too, when the days change.
  static func visit(
    _ condition: Condition, _ wake: inout Wake, _ tick: Int64, _ accountant: borrowing Accountant,
    window: ClosedRange<Day>? = nil
  ) {
    let m = wake.m
    switch condition {
    case .appTime(let d):
      guard let window else {
        let have = accountant.app.nanos
        if have < d.nanoseconds { wake.consider(m + (d.nanoseconds - have)) }
        return
      }
      visitWithin(nil, d.nanoseconds, window, &wake, accountant)
    case .screenTime(let name, let d):
      guard isAccruing(name, accountant, m) else { return }
      guard let window else {
        let have = nanos(of: name, in: accountant)
        if have < d.nanoseconds { wake.consider(m + (d.nanoseconds - have)) }
        return
      }
      visitWithin(name, d.nanoseconds, window, &wake, accountant)
    case .activeDays(_, let minimum, let screen), .streak(_, let minimum, let screen):
      guard isAccruing(screen, accountant, m) else { return }
      wake.consider(wake.span.end)
      // A day counts once its subject accrued the minimum on it, or, with none, more than
      // zero: an instant after the accrual starts (an `active` undone at the same instant
      // makes no active day).
      let need = max(minimum?.nanoseconds ?? 0, 1)
      let have = nanos(of: screen, on: wake.span.day, in: accountant)
      if have < need { wake.consider(m + (need - have)) }
    case .within(let period, let inner):
      guard accountant.isAccruing(at: m) else { return }
      wake.consider(wake.span.end)
      guard let days = PeriodFigures.intersect(period.days(containing: wake.span.day), window) else { return }
      visit(inner, &wake, tick, accountant, window: days)
    case .all(let parts), .any(let parts):
      for part in parts { visit(part, &wake, tick, accountant, window: window) }
    case .check:
      wake.ticks = true
    case .visits, .sessions, .actions, .actionDays, .actionStreak, .unlocked, .points, .level:
      return
    }
  }

  /// A time figure counted within `window`: it reaches `need` when enough is credited to
  /// today (if today counts), and the days counted may change at midnight.
  private static func visitWithin(
    _ screen: String?, _ need: Int64, _ window: ClosedRange<Day>, _ wake: inout Wake,
    _ accountant: borrowing Accountant
  ) {
    guard isAccruing(screen, accountant, wake.m) else { return }
    wake.consider(wake.span.end)
    guard window.contains(wake.span.day) else { return }
    let have = PeriodFigures.nanos(of: screen, in: window, accountant)
    if have < need { wake.consider(wake.m + (need - have)) }
  }

  // MARK: Recurring rules

  /// Earns every recurring rule not yet earned in the period holding `context.today`
  /// whose condition, counted within that period (and the rule's dates), holds now. At
  /// the first instant of a day, the period that just ended is looked at first: a figure
  /// that reached its threshold exactly at its end (time credited up to midnight) earns it.
  mutating func earn(at m: Int64, _ context: inout Context, _ accountant: borrowing Accountant) -> [UnlockRecord] {
    var records: [UnlockRecord] = []
    let days = context.dayStart ? [context.today.adding(days: -1), context.today] : [context.today]
    for index in recurring {
      for day in days { if let record = earn(index, on: day, at: m, &context, accountant) { records.append(record) } }
    }
    return records
  }

  /// Earns recurring rule `index` in the period holding `day` if it is not earned there yet and holds.
  private mutating func earn(
    _ index: Int, on day: Day, at m: Int64, _ context: inout Context, _ accountant: borrowing Accountant
  ) -> UnlockRecord? {
    let rule = rules[index]
    guard let every = rule.every,
      let window = PeriodFigures.intersect(every.days(containing: day), rule.range)
    else { return nil }
    let label = every.label(of: day)
    let key = rule.id + "\u{0}" + label
    guard !earned.contains(key) else { return nil }
    examined += 1
    context.rule = index
    context.window = window
    context.period = window
    defer { context.period = nil }
    guard Self.holds(rule.condition, &context, accountant, slots: qualifierSlots, qualifiers, node: 0) else {
      return nil
    }
    let record = UnlockRecord(
      rule: rule.id, mono: MonotonicInstant(nanoseconds: m), boot: accountant.boot, wall: accountant.wall(at: m),
      points: rule.points, title: rule.title, period: label)
    earned.insert(key)
    earnings.append(record)
    rulePoints.addSaturating(record.points)
    return record
  }

  /// Considers when a recurring rule could next be earned: its figures within today's
  /// period, and the next midnight (a new period, or a new day of it, starts from there).
  func visitRecurring(_ wake: inout Wake, _ accountant: borrowing Accountant) {
    for index in recurring {
      let rule = rules[index]
      guard let every = rule.every else { continue }
      wake.consider(wake.span.end)
      guard let window = PeriodFigures.intersect(every.days(containing: wake.span.day), rule.range),
        !earned.contains(rule.id + "\u{0}" + every.label(of: wake.span.day))
      else { continue }
      Self.visit(rule.condition, &wake, tick, accountant, window: window)
    }
  }

  // MARK: Periods already met

  /// Latches the `within` parts of waiting rules that some past period's figures met (the
  /// store keeps figures by day): such a part holds for good, across launches.
  mutating func latchPastPeriods(_ accountant: borrowing Accountant) {
    var days = Set(accountant.app.days.keys)
    for action in accountant.actions.values { days.formUnion(action.days.keys) }
    days.formUnion(accountant.sessionDays.keys)
    for screen in accountant.screens { days.formUnion(screen.tally.visitDays.keys) }
    guard !days.isEmpty else { return }
    let sorted = days.sorted()
    for index in waiting.others where rules[index].condition.containsWithin && !rules[index].condition.containsCheck {
      for day in sorted {
        var context = Context(m: 0, today: day, appSlot: appSlot)
        context.rule = index
        context.window = rules[index].range
        swap(&context.latches, &latches)
        latch(rules[index].condition, &context, accountant, node: 0)
        swap(&context.latches, &latches)
      }
    }
  }

  /// Evaluates every `within` part of `condition` for the period of `context.today`.
  private func latch(_ condition: Condition, _ context: inout Context, _ accountant: borrowing Accountant, node: Int) {
    switch condition {
    case .within:
      _ = Self.holds(condition, &context, accountant, slots: qualifierSlots, qualifiers, node: node)
    case .all(let parts), .any(let parts):
      var child = node + 1
      for part in parts {
        latch(part, &context, accountant, node: child)
        child += part.nodeCount
      }
    default:
      return
    }
  }
}
