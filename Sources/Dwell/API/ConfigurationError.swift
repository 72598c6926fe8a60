/// Every problem found in a ``Tracker/Configuration``, at once.
///
/// ```swift
/// do {
///   try configuration.validate()
/// } catch {
///   for problem in error.problems { print(problem) }   // rule 'bonus-level': the id is repeated
/// }
/// ```
public struct ConfigurationError: Error, CustomStringConvertible, Sendable, Equatable {
  /// One thing wrong with a configuration.
  public enum Problem: Sendable, Equatable, CustomStringConvertible {
    /// A rule that cannot be used (an empty or repeated id, a negative duration, ...).
    case rule(RuleError)
    /// A setting out of its range, by name ("checkpointInterval").
    case setting(String, String)

    public var description: String {
      switch self {
      case .rule(let error): return error.description
      case .setting(let name, let message): return "\(name): \(message)"
      }
    }
  }

  /// The problems, in the order of the configuration's settings, then its rules.
  public var problems: [Problem]

  /// Creates an error.
  package init(problems: [Problem]) { self.problems = problems }

  public var description: String {
    "the configuration has \(problems.count) problem\(problems.count == 1 ? "" : "s"): "
      + problems.map(\.description).joined(separator: "; ")
  }
}

extension Rule {
  /// Every problem of a rule set (``RuleSet/validate(strict:)`` throws the first); `level`
  /// parts must name one of `levels` (`nil`: not known here, as in a JSON file alone).
  static func problems(_ rules: [Rule], levels: [Level]? = nil) -> [RuleError] { checked(rules, levels).problems }

  /// The rules of a set that can be used, in order: each rule with no problem of its own
  /// whose id no rule before it declared (the first declared keeps an id; a repeat is
  /// left out, the rule before it is not). What a tracker runs with from a configuration
  /// whose rules do not validate.
  static func usable(_ rules: [Rule], levels: [Level]? = nil) -> [Rule] { checked(rules, levels).usable }

  private static func checked(_ rules: [Rule], _ levels: [Level]?) -> (problems: [RuleError], usable: [Rule]) {
    var seen = Set<String>()
    var problems: [RuleError] = []
    var usable: [Rule] = []
    let gates = gateProblems(rules)
    let levelNames = levels.map { levelProblems(rules, levels: $0) } ?? [:]
    for (offset, rule) in rules.enumerated() {
      let before = problems.count
      if rule.id.isEmpty {
        problems.append(RuleError(rule: "#\(offset + 1)", "the id is empty"))
      } else if let problem = Rule.idProblem(rule.id) {
        problems.append(RuleError(rule: "#\(offset + 1)", problem))
      } else if !seen.insert(rule.id).inserted {
        problems.append(RuleError(rule: rule.id, "the id is repeated"))
      }
      if let problem = rule.condition.problem { problems.append(RuleError(rule: rule.id, problem)) }
      if let problem = rule.periodProblem ?? gates[rule.id] ?? levelNames[rule.id] {
        problems.append(RuleError(rule: rule.id, problem))
      }
      if !pointsRange.contains(rule.points) {
        problems.append(RuleError(rule: rule.id, "points must be from 0 to 1,000,000, not \(rule.points)"))
      }
      if problems.count == before { usable.append(rule) }
    }
    return (problems, usable)
  }
}

extension Engine.Configuration {
  /// The longest checkpoint interval and evaluation tick accepted (an hour).
  static let longestInterval = Duration.seconds(3600)

  /// Every problem of the settings and rules, in order.
  var problems: [ConfigurationError.Problem] {
    var problems: [ConfigurationError.Problem] = []
    func positive(_ name: String, _ value: Duration?, atMost limit: Duration? = nil) {
      guard let value else { return }
      if value <= .zero {
        problems.append(.setting(name, "must be longer than zero, not \(value)"))
      } else if let limit, value > limit {
        problems.append(.setting(name, "must be at most \(limit), not \(value)"))
      }
    }
    positive("idleTimeout", idleTimeout)
    positive("sessionTimeout", sessionTimeout)
    positive("checkpointInterval", checkpointInterval, atMost: Self.longestInterval)
    positive("evaluationTick", evaluationTick, atMost: Self.longestInterval)
    problems += Self.levelProblems(levels).problems.map { .setting("levels", $0) }
    return problems + Rule.problems(rules, levels: levels).map { .rule($0) }
  }

  /// Why levels cannot be used (an empty or repeated name, points below 0 or above 10^15),
  /// and the levels that can: each with no problem whose name no level before it took.
  static func levelProblems(_ levels: [Level]) -> (problems: [String], usable: [Level]) {
    var names = Set<String>()
    var problems: [String] = []
    var usable: [Level] = []
    for level in levels {
      let before = problems.count
      if level.name.isEmpty { problems.append("a level's name is empty") }
      if !names.insert(level.name).inserted { problems.append("'\(level.name)' is repeated") }
      if level.points < 0 { problems.append("'\(level.name)' needs negative points") }
      if level.points > Level.maximumPoints {
        problems.append("'\(level.name)' needs more than 1,000,000,000,000,000 points")
      }
      if problems.count == before { usable.append(level) }
    }
    return (problems, usable)
  }

  /// The configuration with every bad setting back at its default, without the rules and
  /// levels that are bad (the good ones stay): what a tracker runs with when it was given a
  /// configuration that does not validate.
  var repaired: Engine.Configuration {
    let defaults = Engine.Configuration()
    var repaired = self
    if let idle = idleTimeout, idle <= .zero { repaired.idleTimeout = nil }
    if sessionTimeout <= .zero { repaired.sessionTimeout = defaults.sessionTimeout }
    if checkpointInterval <= .zero || checkpointInterval > Self.longestInterval {
      repaired.checkpointInterval = defaults.checkpointInterval
    }
    if evaluationTick <= .zero || evaluationTick > Self.longestInterval {
      repaired.evaluationTick = defaults.evaluationTick
    }
    repaired.rules = Rule.usable(rules, levels: levels)
    repaired.levels = Self.levelProblems(levels).usable
    return repaired
  }
}
