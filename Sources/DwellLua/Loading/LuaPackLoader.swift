public import Dwell

/// Loads the Lua scripts of a signed pack installed from bytes
/// (`Tracker.installRulePack(_:signature:)`) as a ``LuaRulePack``.
///
/// ```swift
/// configuration.trustedPackKeys = [Data(base64Encoded: "...")!]
/// configuration.packLoader = LuaPackLoader()
/// ```
public struct LuaPackLoader: RulePackLoader {
  /// The sandbox's limits for the pack's scripts.
  public var limits: ScriptLimits

  /// Creates a loader with these limits.
  public init(limits: ScriptLimits = ScriptLimits()) { self.limits = limits }

  public func load(scripts: [(name: String, text: String)]) throws(RuleError) -> any RulePack {
    try LuaRulePack(scripts: scripts, limits: limits, name: "installed")
  }
}
