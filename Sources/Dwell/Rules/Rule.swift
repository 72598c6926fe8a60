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
  /// For a recurring rule: the period in which it is earned again (once in each period
  /// whose own figures meet the condition). `nil`: an ordinary rule, unlocked once.
  package var every: CalendarPeriod?
  /// The first local day whose figures count (inclusive; `nil`: from the start).
  package var from: Day?
  /// The last local day whose figures count (inclusive; `nil`: no end).
  package var to: Day?

  /// Creates a rule.
  ///
  /// - Parameters:
  ///   - id: the rule's id, 1 to 128 bytes, unique in the rule set.
  ///   - condition: what must hold for the rule to unlock (or, recurring, to be earned).
  ///   - title: the name shown to the user, if any.
  ///   - summary: a line of description shown to the user, if any.
  ///   - points: points awarded when it unlocks (at each earning, recurring), 0 to 1,000,000.
  ///   - isHidden: whether the app should keep the rule secret until it unlocks.
  ///   - achievement: for a tier of an achievement, the achievement's id.
  ///   - tier: for a tier of an achievement, the tier's name.
  ///   - every: makes the rule recurring: earned once in each day, ISO week or month whose
  ///     own figures meet `condition` (every figure counted within that period), and
  ///     announced at each earning with its ``UnlockRecord/period``. `nil`: unlocked once.
  ///   - from: the first local day whose figures count (inclusive; `nil`: from the start).
  ///   - to: the last local day whose figures count (inclusive; `nil`: no end).
  public init(
    _ id: String, when condition: Condition, title: String? = nil, summary: String? = nil, points: Int = 0,
    isHidden: Bool = false, achievement: String? = nil, tier: String? = nil, every: CalendarPeriod? = nil,
    from: Day? = nil, to: Day? = nil
  ) {
    self.id = id
    self.condition = condition
    self.title = title
    self.summary = summary
    self.points = points
    self.isHidden = isHidden
    self.achievement = achievement
    self.tier = tier
    self.every = every
    self.from = from
    self.to = to
  }

  /// The rule in words, its id first: "bonus: unlocks after 30 min in Lessons",
  /// "daily-calm: every day: 10 min in the app".
  public var description: String { "\(id): \(meaning)" }

  /// What the rule does, in words, without its id: the one place rules are said in words
  /// (`dwell rules check`, the simulator's `explain`). "unlocks after 30 min in Lessons";
  /// a recurring rule "every day: 10 min in the app"; dates first, "from 2026-12-20 to
  /// 2026-12-31: unlocks after 1 h in the app", "every day from 2026-12-20: 10 min in the app".
  package var meaning: String {
    var dates: [String] = []
    if let from { dates.append("from \(from)") }
    if let to { dates.append("\(from == nil ? "up to" : "to") \(to)") }
    let range = dates.joined(separator: " ")
    guard let every else { return (range.isEmpty ? "" : range + ": ") + "unlocks after \(condition)" }
    return "every \(every.name)\(range.isEmpty ? "" : " " + range): \(condition)"
  }

  /// The days whose figures count, when ``dates`` bounds them.
  var range: ClosedRange<Day>? {
    guard from != nil || to != nil else { return nil }
    let first = from ?? Day(ordinal: Int32(Day.firstOrdinal))
    let last = to ?? Day(ordinal: Int32(Day.lastOrdinal))
    // `to` before `from` is refused by validation (``Rule/validate(_:)``) before any engine runs it.
    return first...max(first, last)
  }

  /// The points a rule may award, as a Lua rule's `points`: whole, from 0 to 1,000,000.
  static let pointsRange = 0...1_000_000
}
