internal import Dwell
internal import DwellLua
internal import Foundation

/// The expectations about actions and recurring rules: `expect count ACTION N [today]`,
/// `expect earned RULE [N times | for PERIOD]`, `expect not earned RULE [for PERIOD]`,
/// parsed, and checked against the simulation with what was seen instead.
extension Expectation {
  static let actionForms =
    "expect count ACTION N [today], expect earned RULE [N times | for PERIOD], expect not earned RULE [for PERIOD]"

  /// The expectation `kind` (`count`, `earned`, `not`) with the words after it.
  static func actionExpectation(_ kind: String, _ rest: [String], line: String) throws(Simulator.CommandError)
    -> Expectation
  {
    switch kind {
    case "count":
      let today = rest.count == 3 && rest[2].lowercased() == "today"
      guard rest.count == 2 || today, let n = Int(rest[1]), n >= 0 else {
        throw .init(
          "'\(line)' is not an expectation: write expect count quiz_done 3, or expect count quiz_done 1 today")
      }
      return .count(action: rest[0], n, today: today)
    case "earned":
      guard let id = rest.first else { throw .init("expect earned takes a rule: expect earned daily-calm 3 times") }
      let more = Array(rest.dropFirst())
      if more.isEmpty { return .earned(id, times: nil, period: nil) }
      if more.count == 2, more[1] == "times" || more[1] == "time", let n = Int(more[0]), n >= 0 {
        return .earned(id, times: n, period: nil)
      }
      if more.count == 2, more[0] == "for" { return .earned(id, times: nil, period: try period(more[1])) }
      throw .init(
        "'\(line)' is not an expectation: write expect earned \(id), expect earned \(id) 3 times, "
          + "or expect earned \(id) for 2026-05-04")
    default:  // "not"
      guard rest.first == "earned", rest.count == 2 || (rest.count == 4 && rest[2] == "for") else {
        throw .init(
          "'\(line)' is not an expectation: write expect not earned RULE, or expect not earned RULE for 2026-05-04 "
            + "(for a rule that is not recurring: expect locked RULE)")
      }
      return .notEarned(rest[1], period: rest.count == 4 ? try period(rest[3]) : nil)
    }
  }

  /// A period as earnings name it: a day "2026-05-04", an ISO week "2026-W19", a month "2026-05".
  private static func period(_ text: String) throws(Simulator.CommandError) -> String {
    guard text.range(of: #"^\d{4}-(\d{2}-\d{2}|W\d{2}|\d{2})$"#, options: .regularExpression) != nil else {
      throw .init("'for' takes a period: a day 2026-05-04, a week 2026-W19 or a month 2026-05, not '\(text)'")
    }
    return text
  }

  /// `nil` when this action or earning expectation holds, or what was seen instead.
  func actionFailure(_ sim: Simulator, _ report: UsageReport?, _ rules: [(rule: Rule, progress: RuleProgress)])
    -> String?
  {
    switch self {
    case .count(let name, let n, let today):
      let action = report?.actions[name]
      let day = Day(sim.localTime().date) ?? Day(ordinal: 0)
      let seen = today ? action?.days[day] ?? 0 : action?.count ?? 0
      if seen == n { return nil }
      let known = Set(rules.flatMap(\.rule.condition.actionNames)).union(report.map { Array($0.actions.keys) } ?? [])
      let hint = action == nil ? Spelling.hint(for: name, in: known) : ""
      let times = "\(seen) time\(seen == 1 ? "" : "s")"
      return today
        ? "\(name) recorded \(times) today (\(action?.count ?? 0) in all)\(hint)"
        : "\(name) recorded \(times)\(hint)"
    case .earned(let id, let times, let period):
      if let problem = recurring(id, rules) { return problem }
      let mine = (report?.earnings ?? []).filter { $0.rule == id }
      let periods = mine.compactMap(\.period)
      if let times {
        return mine.count == times ? nil : "earned \(Self.times(mine.count))\(Self.listed(periods))"
      }
      if let period { return periods.contains(period) ? nil : "not earned for \(period)\(Self.seen(periods))" }
      if !mine.isEmpty { return nil }
      let progress = rules.first { $0.rule.id == id }?.progress.summary ?? ""
      return "never earned" + (progress.isEmpty ? "" : " (\(progress))")
    case .notEarned(let id, let period):
      if let problem = recurring(id, rules) { return problem }
      let mine = (report?.earnings ?? []).filter { $0.rule == id && (period == nil || $0.period == period) }
      guard let first = mine.first else { return nil }
      let at = sim.local(first.wall)
      return "earned \(Self.times(mine.count))\(Self.listed(mine.compactMap(\.period))), first at \(at.date) \(at.time)"
    default:
      return nil
    }
  }

  /// Why `id` cannot be earned: no such rule, or not a recurring one; `nil` when it can.
  private func recurring(_ id: String, _ rules: [(rule: Rule, progress: RuleProgress)]) -> String? {
    guard let rule = rules.first(where: { $0.rule.id == id })?.rule else {
      return "the pack has no rule '\(id)'\(Spelling.hint(for: id, in: rules.map(\.rule.id)))"
    }
    guard rule.every == nil else { return nil }
    return "'\(id)' is not a recurring rule (it has no 'every'): it unlocks once; write expect unlocked \(id)"
  }

  private static func times(_ n: Int) -> String { n == 1 ? "once" : "\(n) times" }

  /// " (for 2026-05-04, 2026-05-05)", the first ten, or "".
  private static func listed(_ periods: [String]) -> String {
    guard !periods.isEmpty else { return "" }
    let more = periods.count > 10 ? ", …" : ""
    return " (for " + periods.prefix(10).joined(separator: ", ") + more + ")"
  }

  /// "; earned for 2026-05-04" or "; never earned".
  private static func seen(_ periods: [String]) -> String {
    periods.isEmpty ? "; never earned" : "; earned" + listed(periods)
  }
}
