/// The JSON (and Lua table) forms of the conditions on points and level (`{"points": 120}`,
/// `{"level": "Bloom"}`), and the check that a rule set's `level` parts name levels it has.
extension Condition {
  /// `points` or `level`, alone in their condition.
  static func parsePoints(
    _ value: JSONValue, _ keys: Set<String>, count: (String) throws(RuleError) -> Int
  ) throws(RuleError) -> Condition {
    let key = keys.contains("points") ? "points" : "level"
    guard keys == [key] else {
      let other = keys.subtracting([key]).sorted().joined(separator: ", ")
      throw RuleError(
        "'\(key)' stands alone in its condition (not beside \(other)); combine it with all, as in "
          + "all = { { \(key == "points" ? "points = 120" : "level = \"Bloom\"") }, { sessions = 3 } }")
    }
    if key == "points" { return .points(try count("points")) }
    guard case .string(let name)? = value["level"], !name.isEmpty else {
      throw RuleError("'level' must be a level's name in quotes, as in level = \"Bloom\"")
    }
    return .level(name)
  }
}

extension Rule {
  /// For each rule whose `level` parts name a level not among `levels`, why.
  static func levelProblems(_ rules: [Rule], levels: [Level]) -> [String: String] {
    let names = Set(levels.map(\.name))
    var problems: [String: String] = [:]
    for rule in rules {
      guard let missing = rule.condition.levelNames.first(where: { !names.contains($0) }) else { continue }
      let known = names.isEmpty ? "the rules define no levels" : "levels: " + names.sorted().joined(separator: ", ")
      problems[rule.id] =
        "'level' names '\(missing)', which is not a level\(Spelling.hint(for: missing, in: names)) (\(known))"
    }
    return problems
  }
}
