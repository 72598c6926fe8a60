/// The rule-pack seam: what a tracker takes as a pack, and what a pack with scripts does
/// besides (package: DwellLua implements it).

/// Rules and levels that come from outside the app's Swift code: a Lua rule pack
/// (`DwellLua.LuaRulePack` conforms). The seam through which a ``Tracker`` takes packs,
/// reloads them, resets them and loads installed ones, without depending on the language
/// they are written in.
public protocol RulePack: Sendable {
  /// The rules the pack declares.
  var rules: [Rule] { get }
  /// The levels the pack defines.
  var levels: [Level] { get }
}

extension RulePack {
  /// The same pack loaded afresh (used by `erase()`, which must forget what plugins kept
  /// in memory); a pack without scripts keeps nothing and is itself.
  package func reloaded() throws(RuleError) -> any RulePack {
    guard let scripted = self as? any ScriptedRulePack else { return self }
    return try scripted.loadedAfresh()
  }
}
