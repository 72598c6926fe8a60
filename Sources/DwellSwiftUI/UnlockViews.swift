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

  /// The current period's progress toward a recurring rule, a daily goal:
  /// "12 min of 20 min in Lessons today, resets at midnight".
  ///
  /// ```swift
  /// // configuration.rules: Rule("lessons-today", when: .screenTime("Lessons", .minutes(20)), every: .day)
  /// DailyGoalView(rule: "lessons-today", usage: usage)
  /// ```
  public struct DailyGoalView: View {
    let rule: String
    let usage: UsageModel

    /// Creates the view of the rule with id `rule` (nothing done, for an unknown id).
    public init(rule: String, usage: UsageModel) {
      self.rule = rule
      self.usage = usage
    }

    public var body: some View {
      let progress = usage.progress(of: rule) ?? .unknown
      ProgressView(value: progress.fraction) {
        Text(progress.isUnlocked ? "Goal met: \(progress.summary)" : progress.summary)
      }
      .accessibilityValue(Text(progress.summary))
    }
  }
#endif
