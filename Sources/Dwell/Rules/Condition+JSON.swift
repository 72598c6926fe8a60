internal import Foundation

extension Condition {
  /// Parses a condition in the JSON form of <doc:Accounting> (also used for Lua tables).
  ///
  /// - Throws: a message naming what is wrong; the caller adds the rule's id.
  package static func parse(_ value: JSONValue) throws(RuleError) -> Condition {
    guard case .object(let members) = value else {
      throw RuleError(
        "a condition must be an object of keys, such as { screen = \"Lessons\", seconds = 600 }, not \(value.typeName)")
    }
    var keys = Set<String>()
    for member in members {
      guard keys.insert(member.key).inserted else {
        throw RuleError("key '\(member.key)' is given twice in one condition; keep one")
      }
    }
    func number(_ key: String) throws(RuleError) -> Double {
      guard case .number(let n, _)? = value[key] else {
        throw RuleError("'\(key)' must be a number, not \(value[key]?.typeName ?? "missing")")
      }
      guard n >= 0 else { throw RuleError("'\(key)' must not be negative (\(n)); use 0 or more") }
      return n
    }
    func count(_ key: String) throws(RuleError) -> Int {
      let n = try number(key)
      guard n == n.rounded(), n < 1e15 else {
        throw RuleError("'\(key)' must be a whole number, not \(n); round it to \(Int(min(n, 1e15).rounded()))")
      }
      return Int(n)
    }
    func seconds(_ key: String) throws(RuleError) -> Duration {
      let n = try number(key)
      // Nanoseconds must fit in 64 bits with room to add instants: about 31 years at most.
      guard n <= 1e9 else { throw RuleError("'\(key)' is too large (\(n)); at most 1,000,000,000 seconds") }
      return .nanoseconds(Int64((n * 1e9).rounded()))
    }
    // `screen` names one screen, `screens` a group of them (ScreenGroup): either, not both.
    let hasScreen = keys.contains("screen") || keys.contains("screens")
    func screen() throws(RuleError) -> String {
      if keys.contains("screens") { return try screenGroup(value, keys) }
      guard case .string(let s)? = value["screen"] else {
        throw RuleError("'screen' must be a screen's name in quotes, not \(value["screen"]?.typeName ?? "missing")")
      }
      guard !s.isEmpty else {
        throw RuleError("'screen' must not be empty; name the screen, as in screen = \"Lessons\"")
      }
      return s
    }
    func parts(_ key: String) throws(RuleError) -> [Condition] {
      let example = "\(key) = { { sessions = 2 }, { screen = \"Lessons\", seconds = 600 } }"
      // An empty Lua table reads as an empty object: it is an empty list all the same.
      if case .object(let members)? = value[key], members.isEmpty {
        throw RuleError("'\(key)' is empty; list at least one condition, as in \(example)")
      }
      guard case .array(let items)? = value[key] else {
        throw RuleError("'\(key)' must be a list of conditions, as in \(example)")
      }
      guard !items.isEmpty else { throw RuleError("'\(key)' is empty; list at least one condition, as in \(example)") }
      var result: [Condition] = []
      for item in items { result.append(try parse(item)) }
      return result
    }
    /// `hours = 2`: durations are given in seconds, under the key the condition has for them.
    func unitKey(_ unit: String) -> RuleError {
      let target =
        keys.contains("streak") || keys.contains("activeDays")
        ? "minimumPerDay" : hasScreen ? "seconds" : "appSeconds"
      let (helper, scale) = Self.unitKeys[unit] ?? ("seconds", 1)
      var amount = "2"
      if case .number(let n, _)? = value[unit], n.isFinite, n >= 0, n < 1e12 {
        amount = n == n.rounded() ? "\(Int(n))" : "\(n)"
      }
      let seconds = (Double(amount) ?? 2) * scale
      let inSeconds = seconds == seconds.rounded() && seconds < 1e15 ? "\(Int(seconds))" : "\(seconds)"
      // `days = 3` alone most likely counts days of use.
      let orDays = helper == "days" && target == "appSeconds" ? " or, for days of use, activeDays = \(amount)" : ""
      return RuleError(
        "'\(unit)' is not a key: durations are given in seconds; write \(target) = \(helper)(\(amount))\(orDays) "
          + "(in a JSON rules file, \"\(target)\": \(inSeconds))")
    }
    func exactly(_ allowed: Set<String>) throws(RuleError) {
      if let unit = keys.sorted().first(where: { Self.unitKeys[$0] != nil }) { throw unitKey(unit) }
      // `screen` and `screens` stand for each other: the one the condition uses is shown.
      let shown = allowed.subtracting(keys.contains("screens") ? ["screen"] : ["screens"])
      if let odd = keys.subtracting(allowed).sorted().first {
        throw RuleError(
          "unknown key '\(odd)'\(Spelling.hint(for: odd, in: allowed.subtracting(keys))); a condition with "
            + "\(keys.intersection(allowed).sorted().joined(separator: " and ")) takes "
            + shown.sorted().joined(separator: ", "))
      }
    }
    if keys.contains("within") { return try parseWithin(value, keys) }
    if keys.contains("action") || keys.contains("count") || keys.contains("unlocked") {
      return try parseAction(value, keys, count: count)
    }
    if keys.contains("points") || keys.contains("level") { return try parsePoints(value, keys, count: count) }
    if keys.contains("all") {
      try exactly(["all"])
      return .all(try parts("all"))
    }
    if keys.contains("any") {
      try exactly(["any"])
      return .any(try parts("any"))
    }
    if keys.contains("appSeconds") {
      try exactly(["appSeconds"])
      return .appTime(try seconds("appSeconds"))
    }
    if keys.contains("sessions") {
      try exactly(["sessions"])
      return .sessions(try count("sessions"))
    }
    for dayKey in ["activeDays", "streak"] where keys.contains(dayKey) {
      try exactly([dayKey, "minimumPerDay", "screen", "screens"])
      let n = try count(dayKey)
      let minimum = keys.contains("minimumPerDay") ? try seconds("minimumPerDay") : nil
      let target = hasScreen ? try screen() : nil
      return dayKey == "streak"
        ? .streak(n, minimumPerDay: minimum, screen: target)
        : .activeDays(n, minimumPerDay: minimum, screen: target)
    }
    if hasScreen {
      if keys.contains("seconds") {
        try exactly(["screen", "screens", "seconds"])
        return .screenTime(try screen(), try seconds("seconds"))
      }
      if keys.contains("visits") {
        try exactly(["screen", "screens", "visits"])
        return .visits(try screen(), try count("visits"))
      }
      try exactly(["screen", "screens", "seconds", "visits"])
    }
    if keys.isEmpty { throw RuleError("the condition is empty; \(Self.forms)") }
    if let unit = keys.sorted().first(where: { Self.unitKeys[$0] != nil }) { throw unitKey(unit) }
    let odd = keys.sorted()[0]
    throw RuleError("unknown key '\(odd)'\(Spelling.hint(for: odd, in: Self.formKeys)); \(Self.forms)")
  }

  /// Keys named after a unit of time (`hours = 2`), with the Lua helper that gives the
  /// seconds and the seconds in one.
  static let unitKeys: [String: (helper: String, seconds: Double)] = [
    "minutes": ("minutes", 60), "minute": ("minutes", 60), "mins": ("minutes", 60),
    "hours": ("hours", 3600), "hour": ("hours", 3600), "hrs": ("hours", 3600),
    "days": ("days", 86400), "day": ("days", 86400),
  ]

  static let formKeys: Set<String> = [
    "screen", "screens", "seconds", "visits", "appSeconds", "sessions", "activeDays", "streak", "minimumPerDay",
    "all", "any", "action", "count", "within", "unlocked", "points", "level",
  ]
  static let forms =
    "a condition is one of: screen + seconds, screen + visits, appSeconds, sessions, activeDays, streak "
    + "(with minimumPerDay and screen, or action, if wanted), action + count, unlocked, points, level, all, any; "
    + "a figure may add within"
}

extension Rule {
  /// Parses a rules file in the JSON form: an array of `{"id": ..., "when": ...}`.
  ///
  /// - Throws: ``RuleError`` naming the rule (its id, or its position) and the problem.
  package static func parseJSON(_ text: String, file: String? = nil) throws(RuleError) -> [Rule] {
    let document: JSONValue
    do {
      document = try JSONParser.parse(text)
    } catch {
      throw RuleError("not valid JSON: \(error)", file: file)
    }
    guard case .array(let items) = document else {
      throw RuleError("a rules file must be a JSON array of rules, not \(document.typeName)", file: file)
    }
    var rules: [Rule] = []
    var seen = Set<String>()
    let lines = RuleLines(text: text)
    for (offset, item) in items.enumerated() {
      let position = "#\(offset + 1)"
      guard case .object(let members) = item else {
        throw RuleError(
          rule: position, "a rule must be an object such as {\"id\": \"a\", \"when\": {...}}, not \(item.typeName)",
          file: file)
      }
      // As inside a condition: a key given twice is refused, not read as its last value.
      var keys = Set<String>()
      for member in members where !keys.insert(member.key).inserted {
        throw RuleError(
          rule: position, "key '\(member.key)' is given twice in one rule; keep one", file: file,
          line: lines.line(of: offset))
      }
      guard case .string(let id)? = item["id"], !id.isEmpty else {
        throw RuleError(
          rule: position, "the rule needs a non-empty string 'id', as in \"id\": \"bonus-level\"", file: file)
      }
      let line = lines.line(of: offset)
      if let problem = Rule.idProblem(id) { throw RuleError(rule: position, problem, file: file, line: line) }
      guard seen.insert(id).inserted else {
        throw RuleError(rule: id, "the id is repeated; give each rule its own id", file: file, line: line)
      }
      let allowed: Set<String> = ["id", "when", "title", "description", "summary", "every", "from", "to"]
      for member in members where !allowed.contains(member.key) {
        // Lua's words for the same ideas (keywords there, so Dwell names them `every` and `to`).
        let meant = ["repeat": "every", "until": "to"][member.key].map { " (did you mean '\($0)'?)" }
        throw RuleError(
          rule: id,
          "unknown key '\(member.key)'\(meant ?? Spelling.hint(for: member.key, in: allowed)); a rule takes "
            + "description, every, from, id, title, to, when",
          file: file, line: line)
      }
      guard let when = item["when"] else {
        throw RuleError(rule: id, "the rule needs 'when', as in \"when\": {\"sessions\": 3}", file: file, line: line)
      }
      do {
        var rule = Rule(id, when: try Condition.parse(when))
        if case .string(let title)? = item["title"] { rule.title = title }
        // `summary` (the Swift property's name) is accepted for `description`.
        if case .string(let summary)? = item["description"] ?? item["summary"] { rule.summary = summary }
        try rule.parsePeriod(item)
        rules.append(rule)
      } catch {
        throw RuleError(rule: id, error.message, file: file, line: line)
      }
    }
    // What concerns more than one rule (`unlocked`) and a rule beside its condition (`every`).
    if let problem = problems(rules).first {
      let offset = problem.rule.flatMap { id in rules.firstIndex { $0.id == id } }
      throw RuleError(rule: problem.rule, problem.message, file: file, line: offset.flatMap(lines.line(of:)))
    }
    return rules
  }
}

extension Rule {
  /// Why an id cannot be shown where ids are (terminals, logs): a control character or a
  /// change of direction would fake a line or move the cursor.
  static func idProblem(_ id: String) -> String? {
    guard let odd = id.unicodeScalars.first(where: isControl) else { return nil }
    return "the id contains a control character (U+\(String(odd.value, radix: 16, uppercase: true))); "
      + "ids are shown in terminals and logs"
  }
}

extension Condition {
  var problem: String? {
    switch self {
    case .actions(let name, let n):
      return name.isEmpty ? "the action name is empty" : n < 0 ? "a count must not be negative" : nil
    case .actionDays(let n, let name, let minimum), .actionStreak(let n, let name, let minimum):
      if name.isEmpty { return "the action name is empty" }
      return n < 0 ? "a count must not be negative" : minimum < 1 ? "minimumPerDay must be at least 1" : nil
    case .within(_, let part):
      return part.withinProblem ?? part.problem
    case .unlocked(let id):
      return id.isEmpty ? "'unlocked' names no rule" : nil
    case .points(let n):
      return n < 0 ? "'points' must not be negative (\(n)); use 0 or more" : nil
    case .level(let name):
      return name.isEmpty ? "'level' names no level" : nil
    case .appTime(let d):
      return Self.problem(d)
    case .screenTime(let s, let d):
      return ScreenGroup.problem(s) ?? Self.problem(d)
    case .visits(let s, let n):
      if let problem = ScreenGroup.problem(s) { return problem }
      return s.isEmpty ? "the screen name is empty" : n < 0 ? "a count must not be negative" : nil
    case .sessions(let n):
      return n < 0 ? "a count must not be negative" : nil
    case .activeDays(let n, let m, let s), .streak(let n, let m, let s):
      if n < 0 { return "a count must not be negative" }
      if let m, let problem = Self.problem(m) { return problem }
      if let s, let problem = ScreenGroup.problem(s) { return problem }
      return s?.isEmpty == true ? "the screen name is empty" : nil
    case .all(let parts), .any(let parts):
      return parts.isEmpty ? "a group must not be empty" : parts.lazy.compactMap(\.problem).first
    case .check: return nil
    }
  }

  /// A threshold's duration is at least zero and at most 10^9 s (about 31 years), as in
  /// JSON and Lua rules: the engine adds thresholds to instants, which must not overflow.
  private static func problem(_ duration: Duration) -> String? {
    if duration < .zero { return "a duration must not be negative" }
    return duration > .seconds(1_000_000_000) ? "a duration must be at most 1,000,000,000 seconds" : nil
  }
}

extension Condition {
  /// The group a condition's `screens` lists (``ScreenGroup``), refused with the reason when
  /// it is not a list of two or more distinct, non-empty names, or sits beside `screen`.
  static func screenGroup(_ value: JSONValue, _ keys: Set<String>) throws(RuleError) -> String {
    let example = "as in screens = { \"Breathe\", \"Meditate\" }"
    if keys.contains("screen") {
      throw RuleError(
        "a condition takes 'screen' (one screen) or 'screens' (a group of them), not both; keep one")
    }
    // An empty Lua table reads as an empty object: it is an empty list all the same.
    if case .object(let members)? = value["screens"], members.isEmpty {
      throw RuleError("'screens' is empty; list two or more screens, \(example)")
    }
    guard case .array(let items)? = value["screens"] else {
      throw RuleError(
        "'screens' must be a list of screens' names, \(example), not \(value["screens"]?.typeName ?? "missing")")
    }
    var names: [String] = []
    for item in items {
      guard case .string(let name) = item else {
        throw RuleError("'screens' must list screens' names in quotes, \(example), not \(item.typeName)")
      }
      names.append(name)
    }
    let group = ScreenGroup.name(names)
    // A name holding the group's mark would split in two: refused as any control character.
    if let odd = names.first(where: { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) {
      throw RuleError(
        "'screens' holds \"\(ScreenName.clean(odd))\" with a control character; write the name as the app records it")
    }
    if let problem = ScreenGroup.problem(group) { throw RuleError(problem) }
    return group
  }
}
