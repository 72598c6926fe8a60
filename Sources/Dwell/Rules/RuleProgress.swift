/// How far a rule is from unlocking, or a recurring rule from being earned this period: a
/// fraction for progress bars and words for people.
///
/// A recurring rule (a rule made with `every:`) counts every figure within the current period (today,
/// this ISO week or this month, local calendar, and within the rule's dates), as the engine
/// does when it earns the rule, and its words name the period and when it resets: a daily
/// goal is `Rule("lessons-today", when: .screenTime("Lessons", .minutes(10)), every: .day)`.
/// A `within` part of an ordinary rule shows as met once some single period met it, and
/// otherwise counts the current period's figure ("today", "this week").
///
/// ```swift
/// let p = tracker.progress(of: "bonus-level")   // "18 min of 30 min in Lessons", 0.6
/// tracker.progress(of: "lessons-today")?.summary // "4 min of 10 min in Lessons today, resets at midnight"
/// ```
public struct RuleProgress: Sendable, Equatable {
  /// Progress from 0 to 1 (1 when unlocked).
  public var fraction: Double
  /// Where the rule stands, in words: "18 of 30 min in Lessons".
  public var summary: String
  /// What remains, in words: "12 min in Lessons to go"; empty when unlocked.
  public var remaining: String
  /// Whether the rule is unlocked (a recurring rule: earned in the current period).
  public var isUnlocked: Bool
  /// The progress of each part of an `all`/`any` condition.
  public var parts: [RuleProgress]
}

extension RuleProgress {
  /// The progress of a rule the rule book does not have: nothing done, locked.
  package static let unknown = RuleProgress(fraction: 0, summary: "", remaining: "", isUnlocked: false, parts: [])
}

extension RuleBook {
  /// What one rule's progress counts: its index and dates, and for a recurring rule the
  /// current period and its days (`nil` when today is outside the rule's dates).
  private struct Scope {
    let today: Day
    let rule: Int
    let range: ClosedRange<Day>?
    var period: (every: CalendarPeriod, days: ClosedRange<Day>?)?
  }

  /// The progress of every rule, in order.
  func progress(at m: Int64, _ accountant: inout Accountant) -> [(rule: Rule, progress: RuleProgress)] {
    let today = accountant.span(at: m).day
    return rules.indices.map { index in
      let rule = rules[index]
      var scope = Scope(today: today, rule: index, range: rule.range)
      if let every = rule.every {
        scope.period = (every, PeriodFigures.intersect(every.days(containing: today), rule.range))
      }
      var progress = reported[rule.id] ?? progress(of: rule.condition, accountant, scope, node: 0)
      if let every = rule.every {
        progress.isUnlocked = earned.contains(rule.id + "\u{0}" + every.label(of: today))
        progress.summary += ", resets " + Self.reset(every)
      }
      if progress.isUnlocked || unlocked[rule.id] != nil {
        progress.fraction = 1
        progress.isUnlocked = true
        progress.remaining = ""
      }
      return (rule, progress)
    }
  }

  /// The current period in words: "today", "this week", "this month".
  private static func current(_ period: CalendarPeriod) -> String {
    switch period {
    case .day: return "today"
    case .week: return "this week"
    case .month: return "this month"
    }
  }

  /// When the current period ends, in words.
  private static func reset(_ period: CalendarPeriod) -> String {
    switch period {
    case .day: return "at midnight"
    case .week: return "Monday"
    case .month: return "on the 1st"
    }
  }

  private func progress(
    of condition: Condition, _ accountant: borrowing Accountant, _ scope: Scope, node: Int
  ) -> RuleProgress {
    let today = scope.today
    func ratio(_ have: Double, _ need: Double) -> Double { need <= 0 ? 1 : min(1, max(0, have / need)) }
    func time(_ have: Int64, _ need: Int64, _ place: String) -> RuleProgress {
      let haveWords = Condition.words(.nanoseconds(min(have, need)), like: .nanoseconds(need))
      let needWords = Condition.words(.nanoseconds(need))
      let rest = Condition.words(.nanoseconds(max(0, need - have)))
      return RuleProgress(
        fraction: ratio(Double(have), Double(need)), summary: "\(haveWords) of \(needWords) \(place)",
        remaining: have >= need ? "" : "\(rest) \(place) to go", isUnlocked: have >= need, parts: [])
    }
    func count(_ have: Int, _ need: Int, _ noun: String) -> RuleProgress {
      RuleProgress(
        fraction: ratio(Double(have), Double(need)), summary: "\(min(have, need)) of \(need) \(noun)",
        remaining: have >= need ? "" : "\(need - have) more \(need - have == 1 ? singular(noun) : noun)",
        isUnlocked: have >= need, parts: [])
    }
    func singular(_ noun: String) -> String {
      for (plural, one) in [("visits", "visit"), ("sessions", "session"), ("days", "day"), ("times", "time")]
      where noun.hasPrefix(plural) {
        return one + noun.dropFirst(plural.count)
      }
      return noun
    }
    // A figure `leaf` at `have`, its place or noun followed by `when` ("today", "in one week").
    func shown(_ leaf: Condition, _ have: Int64, _ when: String = "") -> RuleProgress {
      let when = when.isEmpty ? "" : " " + when
      let n = Int(clamping: PeriodFigures.threshold(of: leaf) ?? 0)
      let have = Int(clamping: have)
      switch leaf {
      case .appTime(let d): return time(Int64(have), d.nanoseconds, "in the app" + when)
      case .screenTime(let name, let d): return time(Int64(have), d.nanoseconds, "in \(ScreenGroup.words(name))" + when)
      case .visits(let name, _): return count(have, n, "visits to \(ScreenGroup.words(name))" + when)
      case .sessions: return count(have, n, "sessions" + when)
      case .activeDays(_, let minimum, let screen):
        return count(have, n, "days" + Self.dayWords(minimum, screen) + when)
      case .streak(_, let minimum, let screen):
        return count(have, n, "days in a row" + Self.dayWords(minimum, screen) + when)
      case .actions(let name, _): return count(have, n, "times \(name)" + when)
      case .actionDays(_, let name, _): return count(have, n, "days with \(name)" + when)
      case .actionStreak(_, let name, _): return count(have, n, "days in a row with \(name)" + when)
      case .within, .unlocked, .points, .level, .all, .any, .check: return .unknown
      }
    }
    // A recurring rule: every figure is the current period's.
    if let period = scope.period, condition.isFigure {
      let have = period.days.flatMap {
        PeriodFigures.figure(condition, in: $0, accountant, slots: qualifierSlots, qualifiers)
      }
      return shown(condition, have ?? 0, Self.current(period.every))
    }
    switch condition {
    case .appTime:
      return shown(condition, accountant.app.nanos)
    case .screenTime(let name, _):
      return shown(condition, accountant.screenIndex[name].map { accountant.screens[Int($0)].tally.nanos } ?? 0)
    case .visits(let name, _):
      return shown(condition, Int64(accountant.screenIndex[name].map { accountant.screens[Int($0)].visits } ?? 0))
    case .sessions:
      return shown(condition, Int64(accountant.sessions))
    case .activeDays(_, let minimum, let screen):
      let key = DayQualifier.Key(screen: screen, minimum: minimum?.nanoseconds ?? 0)
      return shown(condition, Int64(qualifier(key)?.count ?? 0))
    case .streak(let n, let minimum, let screen):
      let key = DayQualifier.Key(screen: screen, minimum: minimum?.nanoseconds ?? 0)
      let current = qualifier(key)?.current(endingOn: today) ?? 0
      let longest = qualifier(key)?.longest ?? 0
      var result = shown(condition, Int64(max(current, longest >= n ? n : current)))
      if longest >= n { result.isUnlocked = true }
      return result
    case .actions(let name, _):
      return shown(condition, Int64(accountant.actions[name]?.count ?? 0))
    case .actionDays(_, let name, let minimum):
      return shown(condition, Int64(accountant.actions[name]?.days.values.filter { $0 >= max(minimum, 1) }.count ?? 0))
    case .actionStreak(_, let name, let minimum):
      let days = accountant.actions[name]?.days.filter { $0.value >= max(minimum, 1) }.keys
      return shown(condition, Int64(days.map { PeriodFigures.longestRun($0) } ?? 0))
    case .within(let period, let part):
      // Met in some single period (latched, as the engine keeps it for good): shown met, at
      // its threshold (a figure shown is capped at it). Not met yet: the current period's figure.
      if latches.contains(Context.latchKey(rule: scope.rule, node: node)) {
        return shown(part, PeriodFigures.threshold(of: part) ?? 0, "in one \(period.name)")
      }
      let days = PeriodFigures.intersect(period.days(containing: today), scope.range)
      let have = days.flatMap { PeriodFigures.figure(part, in: $0, accountant, slots: qualifierSlots, qualifiers) }
      return shown(part, have ?? 0, Self.current(period))
    case .unlocked(let id):
      let done = unlocked[id] != nil
      return RuleProgress(
        fraction: done ? 1 : 0, summary: done ? "\(id) unlocked" : "\(id) not unlocked yet",
        remaining: done ? "" : "unlock \(id)", isUnlocked: done, parts: [])
    case .points(let n):
      return count(Self.clamped(points(accountant)), n, "points")
    case .level(let name):
      guard let need = levelPoints[name] else { return .unknown }
      return count(Self.clamped(points(accountant)), need, "points to level \(name)")
    case .all(let parts):
      var inner: [RuleProgress] = []
      var child = node + 1
      for part in parts {
        inner.append(progress(of: part, accountant, scope, node: child))
        child += part.nodeCount
      }
      let weakest = inner.min { $0.fraction < $1.fraction }
      return RuleProgress(
        fraction: weakest?.fraction ?? 1, summary: inner.map(\.summary).joined(separator: "; "),
        remaining: inner.filter { !$0.isUnlocked }.map(\.remaining).joined(separator: " and "),
        isUnlocked: inner.allSatisfy(\.isUnlocked), parts: inner)
    case .any(let parts):
      var inner: [RuleProgress] = []
      var child = node + 1
      for part in parts {
        inner.append(progress(of: part, accountant, scope, node: child))
        child += part.nodeCount
      }
      let best = inner.max { $0.fraction < $1.fraction }
      return RuleProgress(
        fraction: best?.fraction ?? 0, summary: inner.map(\.summary).joined(separator: " or "),
        remaining: inner.contains(where: \.isUnlocked) ? "" : (best?.remaining ?? ""),
        isUnlocked: inner.contains(where: \.isUnlocked), parts: inner)
    case .check:
      return RuleProgress(
        fraction: 0, summary: "a scripted check", remaining: "the check has not passed yet", isUnlocked: false,
        parts: [])
    }
  }

  /// A points total as progress counts it (an `Int` of points, not beyond what `need - have` may take).
  private static func clamped(_ points: Int) -> Int { max(points, Int.min / 2) }

  private static func dayWords(_ minimum: Duration?, _ screen: String?) -> String {
    Condition.dayQualifier(minimum, screen, atLeast: "", none: "")
  }
}
