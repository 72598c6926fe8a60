/// Rules and plugins that come from outside the app's Swift code: a Lua rule pack
/// (`DwellLua.LuaRulePack` conforms). The seam through which a ``Tracker`` takes packs,
/// reloads them, resets them and loads installed ones, without
/// depending on the language they are written in. A pack with plugins also receives the
/// tracker's events (it conforms to the package's listener protocol too).
public protocol RulePack: Sendable {
  /// The rules the pack declares.
  var rules: [Rule] { get }
  /// The levels the pack defines.
  var levels: [Level] { get }
  /// Exposes a value to the pack's scripts as `host.name`.
  func setHostValue(_ name: String, _ value: HostValue)
  /// The same pack loaded afresh: no plugin state, no published values (used by
  /// ``Tracker/erase()``, which must forget what plugins kept in memory).
  func reloaded() throws(RuleError) -> any RulePack
}
