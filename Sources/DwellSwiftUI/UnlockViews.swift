#if canImport(SwiftUI)
  public import Dwell
  public import SwiftUI

  /// Content gated on a rule: the content once unlocked, a placeholder with progress before.
  ///
  /// ```swift
  /// UnlockGate("bonus-level", usage: usage) {
  ///   BonusLevelView()
  /// } locked: { progress in
  ///   ProgressView(value: progress.fraction) { Text("Bonus level: \(progress.remaining)") }
  /// }
  /// ```
  public struct UnlockGate<Content: View, Locked: View>: View {
    let rule: String
    let usage: UsageModel
    let content: () -> Content
    let locked: (RuleProgress) -> Locked

    /// Creates a gate on `rule`.
    public init(
      _ rule: String, usage: UsageModel, @ViewBuilder content: @escaping () -> Content,
      @ViewBuilder locked: @escaping (RuleProgress) -> Locked
    ) {
      self.rule = rule
      self.usage = usage
      self.content = content
      self.locked = locked
    }

    public var body: some View {
      if usage.isUnlocked(rule) {
        content()
      } else {
        locked(usage.progress(of: rule) ?? .unknown)
      }
    }
  }

  /// Today's progress toward a daily goal: "12 of 20 min".
  ///
  /// ```swift
  /// DailyGoalView(goal: DailyGoal(.screen("Lessons"), .minutes(20)), usage: usage)
  /// ```
  public struct DailyGoalView: View {
    let goal: DailyGoal
    let usage: UsageModel

    /// Creates the view.
    public init(goal: DailyGoal, usage: UsageModel) {
      self.goal = goal
      self.usage = usage
    }

    public var body: some View {
      let progress = usage.progress(of: goal)
      ProgressView(value: progress.fraction) {
        Text(progress.isUnlocked ? "Goal met: \(progress.summary)" : progress.summary)
      }
      .accessibilityValue(Text(progress.summary))
    }
  }
#endif
