/// Where today stands against a ``DailyGoal``: "12 of 20 min".
public struct GoalProgress: Sendable, Equatable {
  /// Time counted today.
  public var done: Duration
  /// The goal.
  public var target: Duration
  /// `done / target`, at most 1.
  public var fraction: Double
  /// What is left today (zero once met).
  public var remaining: Duration
  /// Whether today's goal is met.
  public var isMet: Bool
  /// "12 of 20 min".
  public var summary: String
}
