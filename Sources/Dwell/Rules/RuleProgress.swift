/// How far a rule is from unlocking, or today from a ``DailyGoal``: a fraction for
/// progress bars and words for people.
///
/// ```swift
/// let p = tracker.progress(of: "bonus-level")   // "18 min of 30 min in Lessons", 0.6
/// ```
public struct RuleProgress: Sendable, Equatable {
  /// Progress from 0 to 1 (1 when unlocked).
  public var fraction: Double
  /// Where the rule stands, in words: "18 of 30 min in Lessons".
  public var summary: String
  /// What remains, in words: "12 min in Lessons to go"; empty when unlocked.
  public var remaining: String
  /// Whether the rule is unlocked (a daily goal: met today).
  public var isUnlocked: Bool
  /// The progress of each part of an `all`/`any` condition.
  public var parts: [RuleProgress]
}

extension RuleProgress {
  /// The progress of a rule the rule book does not have: nothing done, locked.
  package static let unknown = RuleProgress(fraction: 0, summary: "", remaining: "", isUnlocked: false, parts: [])
}

extension RuleBook {
  /// The progress of every rule, in order.
  func progress(at m: Int64, _ accountant: inout Accountant) -> [(rule: Rule, progress: RuleProgress)] {
    let today = accountant.span(at: m).day
    return rules.map { rule in
      var progress = progress(of: rule.condition, accountant, today: today)
      if unlocked[rule.id] != nil {
        progress.fraction = 1
        progress.isUnlocked = true
        progress.remaining = ""
      }
      return (rule, progress)
    }
  }

  private func progress(of condition: Condition, _ accountant: borrowing Accountant, today: Day) -> RuleProgress {
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
      for (plural, one) in [("visits", "visit"), ("sessions", "session"), ("days", "day")] where noun.hasPrefix(plural)
      {
        return one + noun.dropFirst(plural.count)
      }
      return noun
    }
    switch condition {
    case .appTime(let d):
      return time(accountant.app.nanos, d.nanoseconds, "in the app")
    case .screenTime(let name, let d):
      let have = accountant.screenIndex[name].map { accountant.screens[Int($0)].tally.nanos } ?? 0
      return time(have, d.nanoseconds, "in \(name)")
    case .visits(let name, let n):
      let have = accountant.screenIndex[name].map { accountant.screens[Int($0)].visits } ?? 0
      return count(have, n, "visits to \(name)")
    case .sessions(let n):
      return count(accountant.sessions, n, "sessions")
    case .activeDays(let n, let minimum, let screen):
      let key = DayQualifier.Key(screen: screen, minimum: minimum?.nanoseconds ?? 0)
      let have = qualifier(key)?.count ?? 0
      return count(have, n, "days" + Self.dayWords(minimum, screen))
    case .streak(let n, let minimum, let screen):
      let key = DayQualifier.Key(screen: screen, minimum: minimum?.nanoseconds ?? 0)
      let current = qualifier(key)?.current(endingOn: today) ?? 0
      let longest = qualifier(key)?.longest ?? 0
      var result = count(max(current, longest >= n ? n : current), n, "days in a row" + Self.dayWords(minimum, screen))
      if longest >= n { result.isUnlocked = true }
      return result
    case .actions(let name, let n):
      return count(accountant.actions[name]?.count ?? 0, n, "times \(name)")
    case .actionDays(let n, let name, let minimum):
      let have = accountant.actions[name]?.days.values.filter { $0 >= max(minimum, 1) }.count ?? 0
      return count(have, n, "days with \(name)")
    case .actionStreak(let n, let name, let minimum):
      let days = accountant.actions[name]?.days.filter { $0.value >= max(minimum, 1) }.keys
      return count(days.map { PeriodFigures.longestRun($0) } ?? 0, n, "days in a row with \(name)")
    case .within(let period, let part):
      // Progress within the period now is not reckoned: the part is shown as not yet met.
      return RuleProgress(
        fraction: 0, summary: "\(part) in one \(period.name)", remaining: "\(part) in one \(period.name)",
        isUnlocked: false, parts: [])
    case .unlocked(let id):
      let done = unlocked[id] != nil
      return RuleProgress(
        fraction: done ? 1 : 0, summary: done ? "\(id) unlocked" : "\(id) not unlocked yet",
        remaining: done ? "" : "unlock \(id)", isUnlocked: done, parts: [])
    case .all(let parts):
      var inner: [RuleProgress] = []
      for part in parts { inner.append(progress(of: part, accountant, today: today)) }
      let weakest = inner.min { $0.fraction < $1.fraction }
      return RuleProgress(
        fraction: weakest?.fraction ?? 1, summary: inner.map(\.summary).joined(separator: "; "),
        remaining: inner.filter { !$0.isUnlocked }.map(\.remaining).joined(separator: " and "),
        isUnlocked: inner.allSatisfy(\.isUnlocked), parts: inner)
    case .any(let parts):
      var inner: [RuleProgress] = []
      for part in parts { inner.append(progress(of: part, accountant, today: today)) }
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

  private static func dayWords(_ minimum: Duration?, _ screen: String?) -> String {
    Condition.dayQualifier(minimum, screen, atLeast: "", none: "")
  }
}
