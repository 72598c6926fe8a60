// The record of a rule's unlock, or of a recurring rule's earning, as apps are told of it.

/// A rule that unlocked: when, on both clocks.
public struct UnlockRecord: Sendable, Equatable {
  /// The rule's id.
  public var rule: String
  /// The monotonic instant of the unlock, in the boot session ``boot``.
  package var mono: MonotonicInstant
  /// The boot session of ``mono``.
  package var boot: String
  /// The wall-clock instant of the unlock (or of the recurring rule's earning).
  public var wall: WallInstant
  /// The points the user was awarded when the rule unlocked (kept in the store; a later
  /// change of the rule's points does not change them).
  public var points: Int = 0
  /// The rule's title, from the rule in force (`nil` when it has none, or is no longer in force).
  public var title: String? = nil
  /// For an earning of a recurring rule (a rule made with `every:`), the period it is for: "2026-03-28",
  /// "2026-W13" (an ISO week) or "2026-03". `nil` for an unlock.
  public var period: String? = nil
}
