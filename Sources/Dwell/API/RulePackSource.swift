/// Where a tracker finds a rule pack it loads at launch and reloads when it changes: a
/// folder of Lua scripts (`DwellLua.LuaRuleFolder`, which apps set as
/// `configuration.rulesDirectory`). Package: only DwellLua implements it.
package protocol RulePackSource: Sendable {
  /// Loads the pack as it is now.
  func load() throws(RuleError) -> any RulePack
  /// Calls `reload` with each new version of the pack (or the error that kept it out)
  /// until the returned work is cancelled.
  func watch(_ reload: @escaping @Sendable (Result<any RulePack, RuleError>) -> Void) -> any ScheduledWork
}
