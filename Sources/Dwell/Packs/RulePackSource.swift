/// Where a tracker finds a rule pack it loads at launch and reloads when it changes: a
/// folder of Lua scripts (`DwellLua.LuaRuleFolder`, which apps set as
/// `configuration.rulesDirectory`). Package: only DwellLua implements it.
package protocol RulePackSource: Sendable {
  /// Loads the pack as it is now.
  func load() throws(RuleError) -> any RulePack
  /// Makes a watch whose baseline is the source as it is now; once started it calls
  /// `reload` with each version saved after that baseline (or the error that kept one out)
  /// until cancelled. Made before the first ``load()``, it misses no save made after launch.
  func watch(_ reload: @escaping @Sendable (Result<any RulePack, RuleError>) -> Void) -> any RulePackWatch
}
