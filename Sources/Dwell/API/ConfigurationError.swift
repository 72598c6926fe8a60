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
  /// Every problem of a rule set (``validate(_:)`` stops at the first).
  static func problems(_ rules: [Rule]) -> [RuleError] {
    var seen = Set<String>()
    var problems: [RuleError] = []
    for (offset, rule) in rules.enumerated() {
      if rule.id.isEmpty {
        problems.append(RuleError(rule: "#\(offset + 1)", "the id is empty"))
      } else if let problem = Rule.idProblem(rule.id) {
        problems.append(RuleError(rule: "#\(offset + 1)", problem))
      } else if !seen.insert(rule.id).inserted {
        problems.append(RuleError(rule: rule.id, "the id is repeated"))
      }
      if let problem = rule.condition.problem { problems.append(RuleError(rule: rule.id, problem)) }
    }
    return problems
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
    var names = Set<String>()
    for level in levels {
      if level.name.isEmpty { problems.append(.setting("levels", "a level's name is empty")) }
      if !names.insert(level.name).inserted { problems.append(.setting("levels", "'\(level.name)' is repeated")) }
      if level.points < 0 { problems.append(.setting("levels", "'\(level.name)' needs negative points")) }
    }
    return problems + Rule.problems(rules).map { .rule($0) }
  }

  /// The configuration with every bad setting back at its default and no rules if any rule
  /// is bad: what a tracker runs with when it was given a configuration that does not validate.
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
    if !Rule.problems(rules).isEmpty { repaired.rules = [] }
    return repaired
  }
}
