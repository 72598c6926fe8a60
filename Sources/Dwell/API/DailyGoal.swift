/// A daily goal: "10 minutes of Lessons today". Resets at local midnight.
public struct DailyGoal: Sendable, Hashable {
  /// What counts toward the goal.
  public var subject: Subject
  /// How much a day needs.
  public var target: Duration

  /// Creates a goal.
  public init(_ subject: Subject, _ target: Duration) {
    self.subject = subject
    self.target = target
  }
}
