// A rule pack with scripts: what the engine needs of it beyond its rules.

/// A pack with scripts (DwellLua's): the tracker hands it host values, loads it afresh for
/// `erase()`, and gives its plugins the tracker's events.
package protocol ScriptedRulePack: RulePack, UsageListener {
  /// Exposes a value to the pack's scripts as `host.name`.
  func setHostValue(_ name: String, _ value: HostValue)
  /// The same pack loaded afresh: no plugin state, no published values.
  func loadedAfresh() throws(RuleError) -> any RulePack
}
