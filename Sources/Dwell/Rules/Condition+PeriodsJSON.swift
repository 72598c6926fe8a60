/// The JSON (and Lua table) forms of actions, `within`, `unlocked` and a rule's `every`,
/// `from` and `to` (<doc:Accounting>, "Actions and periods"), and the problems of rules
/// using them that only the rule, or the whole set, shows.
extension Condition {
  /// A figure with `within`: the period, then the figure without it.
  static func parseWithin(_ value: JSONValue, _ keys: Set<String>) throws(RuleError) -> Condition {
    guard case .string(let text)? = value["within"], let period = CalendarPeriod(name: text) else {
      let found = value["within"].map { v -> String in
        if case .string(let s) = v { return "'\(s)'" }
        return v.typeName
      }
      throw RuleError("unknown value of 'within' (\(found ?? "missing")); use \"day\", \"week\" or \"month\"")
    }
    guard case .object(let members) = value else { throw RuleError("a condition must be an object") }
    if keys.contains("all") || keys.contains("any") || keys.contains("unlocked") {
      throw RuleError(
        "'within' goes beside a figure (appSeconds, screen + seconds, action + count...), not beside all, any or unlocked"
      )
    }
    let part = try parse(.object(members.filter { $0.key != "within" }))
    if let problem = part.withinProblem { throw RuleError(problem) }
    return .within(period, part)
  }

  /// Why this figure cannot be counted within a period.
  var withinProblem: String? {
    switch self {
    case .streak, .actionStreak: return "'within' is not allowed with streak: a streak spans periods"
    case .all, .any, .within, .unlocked, .points, .level, .check: return "'within' goes beside a figure"
    default:
      return hasZeroThreshold ? "'within' needs a threshold above 0 (it would hold before anything happened)" : nil
    }
  }

  /// Whether the condition is a figure whose threshold is 0: it holds before anything happened.
  var hasZeroThreshold: Bool {
    switch self {
    case .appTime(let d), .screenTime(_, let d): return d <= .zero
    case .visits(_, let n), .sessions(let n), .actions(_, let n): return n <= 0
    case .activeDays(let n, _, _), .streak(let n, _, _): return n <= 0
    case .actionDays(let n, _, _), .actionStreak(let n, _, _): return n <= 0
    case .within(_, let part): return part.hasZeroThreshold
    case .all, .any, .unlocked, .points, .level, .check: return false
    }
  }

  /// `action` with `count`, `activeDays` or `streak`; `count` without `action`; `unlocked`.
  static func parseAction(
    _ value: JSONValue, _ keys: Set<String>, count: (String) throws(RuleError) -> Int
  ) throws(RuleError) -> Condition {
    if keys.contains("unlocked") {
      guard keys == ["unlocked"] else {
        throw RuleError(
          "'unlocked' stands alone in its condition; combine it with all, as in all = { { unlocked = \"basics\" }, ... }"
        )
      }
      guard case .string(let id)? = value["unlocked"], !id.isEmpty else {
        throw RuleError("'unlocked' must name another rule's id in quotes")
      }
      return .unlocked(id)
    }
    guard keys.contains("action") else {
      throw RuleError("'count' counts an action: name it, as in {\"action\": \"quiz_done\", \"count\": 3}")
    }
    if let screen = keys.first(where: { $0 == "screen" || $0 == "screens" }) {
      throw RuleError("a condition names at most one of '\(screen)' and 'action'; split it with all")
    }
    guard case .string(let name)? = value["action"], !name.isEmpty else {
      throw RuleError("'action' must be an action's name in quotes, as in \"action\": \"quiz_done\"")
    }
    let figures = ["count", "activeDays", "streak"].filter { keys.contains($0) }
    guard figures.count == 1, let figure = figures.first else {
      throw RuleError(
        figures.isEmpty
          ? "'action' needs a figure: count, activeDays or streak, as in {\"action\": \"\(name)\", \"count\": 3}"
          : "an action's condition takes one of count, activeDays and streak")
    }
    let allowed: Set<String> = figure == "count" ? ["action", "count"] : ["action", figure, "minimumPerDay"]
    if let odd = keys.subtracting(allowed).sorted().first {
      throw RuleError(
        "unknown key '\(odd)' in an action's condition; it takes \(allowed.sorted().joined(separator: ", "))")
    }
    let n = try count(figure)
    if figure == "count" { return .actions(name, n) }
    // With an action, minimumPerDay is a count of it, not seconds.
    let minimum = keys.contains("minimumPerDay") ? try count("minimumPerDay") : 1
    guard minimum >= 1 else { throw RuleError("'minimumPerDay' of an action must be at least 1") }
    return figure == "streak"
      ? .actionStreak(n, action: name, minimumPerDay: minimum) : .actionDays(n, action: name, minimumPerDay: minimum)
  }
}

extension Rule {
  /// Reads `every`, `from` and `to` of a rule's JSON object.
  mutating func parsePeriod(_ item: JSONValue) throws(RuleError) {
    if let value = item["every"] {
      guard case .string(let text) = value, let period = CalendarPeriod(name: text) else {
        let found = JSONWriter.render(value, pretty: false)
        throw RuleError("unknown value of 'every' (\(found)); use \"day\", \"week\" or \"month\"")
      }
      every = period
    }
    for key in ["from", "to"] {
      guard let value = item[key] else { continue }
      guard case .string(let text) = value, let day = Day(text) else {
        throw RuleError("'\(key)' must be a real calendar date written YYYY-MM-DD, as in \"2026-12-20\"")
      }
      if key == "from" { from = day } else { to = day }
    }
  }

  /// Sets `every`, `from` and `to` from their texts (a Lua rule's keys), as the JSON form reads them.
  package mutating func setPeriod(every: String?, from: String?, to: String?) throws(RuleError) {
    var members: [(key: String, value: JSONValue)] = []
    for (key, text) in [("every", every), ("from", from), ("to", to)] {
      if let text { members.append((key, .string(text))) }
    }
    try parsePeriod(.object(members))
  }

  /// What a rule's `every` and dates forbid, or `nil`.
  var periodProblem: String? {
    if let from, let to, to < from { return "'to' (\(to)) is before 'from' (\(from))" }
    guard every != nil else { return nil }
    return condition.recurringProblem
  }

  /// For each rule whose `unlocked` references are wrong (an unknown id, itself, a
  /// recurring rule, a cycle), why.
  static func gateProblems(_ rules: [Rule]) -> [String: String] {
    var byID: [String: Rule] = [:]
    for rule in rules where byID[rule.id] == nil { byID[rule.id] = rule }
    var problems: [String: String] = [:]
    for rule in rules {
      for target in rule.condition.gates {
        if target == rule.id {
          problems[rule.id] = "it needs itself unlocked (\"unlocked\": \"\(target)\"); name another rule"
        } else if let other = byID[target] {
          if other.every != nil {
            problems[rule.id] = "'unlocked' names the recurring rule '\(target)'; only an ordinary rule unlocks"
          }
        } else {
          problems[rule.id] = "'unlocked' names '\(target)', which is no rule of this set"
        }
        if problems[rule.id] != nil { break }
      }
    }
    // Cycles: a rule that leads back to itself through others.
    for rule in rules where problems[rule.id] == nil {
      var seen: Set<String> = []
      var frontier = rule.condition.gates
      while let next = frontier.popLast() {
        if next == rule.id {
          problems[rule.id] = "its 'unlocked' references lead back to it (a cycle); one of them must go"
          break
        }
        guard seen.insert(next).inserted, let other = byID[next] else { continue }
        frontier += other.condition.gates
      }
    }
    return problems
  }
}

extension Condition {
  /// The ids `unlocked` parts name.
  var gates: [String] {
    switch self {
    case .unlocked(let id): return [id]
    case .all(let parts), .any(let parts): return parts.flatMap(\.gates)
    case .within(_, let part): return part.gates
    default: return []
    }
  }

  /// What a recurring rule's condition must not hold: every leaf is counted within the period already.
  var recurringProblem: String? {
    switch self {
    case .streak, .actionStreak: return "a recurring rule ('every') cannot hold a streak: a streak spans periods"
    case .within: return "a recurring rule ('every') counts every figure within its period already: remove 'within'"
    case .unlocked: return "a recurring rule ('every') cannot need another rule ('unlocked')"
    case .points, .level:
      return "a recurring rule ('every') cannot count points or a level: points are not counted by period"
    case .all(let parts), .any(let parts): return parts.lazy.compactMap(\.recurringProblem).first
    case .check: return nil
    default:
      return hasZeroThreshold
        ? "a recurring rule ('every') needs thresholds above 0 (it would be earned before anything happened)" : nil
    }
  }
}
