/// What a listener asks the engine to do in response to an event.
package enum UsageAction: Sendable, Equatable {
  /// Adds points to the ledger (persisted).
  case award(points: Int, reason: String, source: String)
  /// Unlocks the rule with this id now (persisted; sticky).
  case unlock(String)
  /// Delivers a notification to the host app (after the actions before it are persisted).
  case notify(UsageNotification)
  /// Replaces a listener's persistent state (a small text blob, at most 64 KiB).
  case saveState(source: String, data: String)
  /// Reports how far a rule of the pack is from unlocking (a plugin's `p.progress`):
  /// `fraction` from 0 to 1, `summary` in words. Shown until the rule unlocks; not persisted.
  case progress(rule: String, fraction: Double, summary: String)
}
