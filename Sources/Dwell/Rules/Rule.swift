/// A named unlock: it unlocks at the first instant its condition holds, and stays unlocked.
///
/// ```swift
/// let bonus = Rule("bonus-level", when: .screenTime("Lessons", .minutes(30)),
///                  title: "Bonus level", summary: "Spend 30 minutes in Lessons")
/// ```
public struct Rule: Sendable, Identifiable, CustomStringConvertible {
  /// The rule's unique, stable id. Persisted with the unlock.
  public var id: String
  /// When the rule unlocks.
  public var condition: Condition
  /// A title the app can show.
  public var title: String?
  /// A description the app can show.
  public var summary: String?
  /// Points earned when the rule unlocks (achievements). Default 0.
  public var points: Int
  /// Whether the app should keep the rule secret until it unlocks.
  public var isHidden: Bool
  /// For a tier of an achievement: the achievement's id (the rule's id is `achievement/tier`).
  public var achievement: String?
  /// For a tier of an achievement: the tier's name ("bronze").
  public var tier: String?

  /// Creates a rule.
  public init(
    _ id: String, when condition: Condition, title: String? = nil, summary: String? = nil, points: Int = 0,
    isHidden: Bool = false, achievement: String? = nil, tier: String? = nil
  ) {
    self.id = id
    self.condition = condition
    self.title = title
    self.summary = summary
    self.points = points
    self.isHidden = isHidden
    self.achievement = achievement
    self.tier = tier
  }

  public var description: String { "\(id): unlocks after \(condition)" }
}

/// A rule or rules file that cannot be used, with the rule it concerns.
public struct RuleError: Error, CustomStringConvertible, Sendable, Equatable {
  /// The rule's id, or `#N` (1-based position) when it has no usable id.
  public var rule: String?
  /// What is wrong.
  public var message: String
  /// The file, if known.
  public var file: String?
  /// The line, if known.
  public var line: Int?

  /// Creates an error.
  public init(rule: String? = nil, _ message: String, file: String? = nil, line: Int? = nil) {
    self.rule = rule
    self.message = message
    self.file = file
    self.line = line
  }

  public var description: String {
    var location = ""
    if let file { location = line.map { "\(file):\($0): " } ?? "\(file): " }
    if let rule { return "\(location)rule '\(rule)': \(message)" }
    return location + message
  }
}

/// A level reached at a number of points ("Scholar" from 150 points).
public struct Level: Sendable, Equatable {
  /// The level's name.
  public var name: String
  /// Points needed.
  public var points: Int

  /// Creates a level.
  public init(_ name: String, points: Int) {
    self.name = name
    self.points = points
  }

  /// "Scholar (100 to Master)": the level reached with `points` and what the next needs.
  package static func summary(_ points: Int, in levels: [Level]) -> String? {
    guard let reached = reached(points, in: levels) else { return nil }
    guard let next = reached.next else { return reached.level.name }
    return "\(reached.level.name) (\(next.points - points) to \(next.name))"
  }

  /// The highest level reached with `points`, its index, and the next level if any.
  package static func reached(_ points: Int, in levels: [Level]) -> (index: Int, level: Level, next: Level?)? {
    let sorted = levels.sorted { $0.points < $1.points }
    guard let index = sorted.lastIndex(where: { $0.points <= points }) else { return nil }
    return (index, sorted[index], index + 1 < sorted.count ? sorted[index + 1] : nil)
  }
}
