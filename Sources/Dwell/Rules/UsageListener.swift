/// Receives engine events on the engine's processing context and answers with actions.
///
/// The Lua plugin runtime implements this (`package`: the seam between Dwell and DwellLua;
/// apps put plugins in force through a ``RulePack``). Handlers must be quick: they run while the
/// engine processes events (its scheduler's queue, and the caller's thread inside `setRules` and `terminate`).
package protocol UsageListener: Sendable {
  /// Whether the listener wants ``UsageEvent/tick`` (costs a wake-up per tick of app time).
  var wantsTicks: Bool { get }
  /// Called once when the engine starts, with the states saved by earlier runs.
  func restore(states: [String: String])
  /// Handles an event; returns what to do.
  func receive(_ event: UsageEvent, usage: UsageFigures) -> [UsageAction]
}
