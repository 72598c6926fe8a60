public import Dwell

/// A Lua pack as a tracker takes it: a fresh copy of itself for `Tracker.erase()`.
extension LuaRulePack: RulePack, ScriptedRulePack {
  /// The same scripts loaded into a new state: no plugin state, nothing published.
  package func loadedAfresh() throws(RuleError) -> any RulePack {
    try LuaRulePack(scripts: scripts, limits: limits, name: name)
  }
}
