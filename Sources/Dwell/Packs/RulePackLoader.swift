/// Makes a pack from scripts given by name: how a tracker loads a signed pack installed
/// from bytes (``Tracker/installRulePack(_:signature:)``). `DwellLua.LuaPackLoader` loads Lua
/// (apps set it as `configuration.packLoader`). Package: only DwellLua implements it.
package protocol RulePackLoader: Sendable {
  /// Loads the scripts, in order, as one pack.
  func load(scripts: [(name: String, text: String)]) throws(RuleError) -> any RulePack
}
