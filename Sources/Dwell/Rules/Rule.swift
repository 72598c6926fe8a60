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
  /// Points earned when the rule unlocks (achievements): whole, from 0 to 1,000,000, as a
  /// Lua rule's `points`. Default 0. A rule with other points is refused:
  /// ``Tracker/setRules(_:pack:)`` throws, and a configuration's rules run without it.
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

  /// The points a rule may award, as a Lua rule's `points`: whole, from 0 to 1,000,000.
  static let pointsRange = 0...1_000_000
}
