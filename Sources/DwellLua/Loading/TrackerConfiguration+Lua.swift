public import Dwell

/// Tracker.Configuration's Lua settings: the folder of rules a tracker loads at launch and
/// reloads on change, and the loader of signed packs it installs.
extension Tracker.Configuration {
  /// A folder (or file) of Lua rules loaded when the tracker starts and reloaded whenever
  /// it changes. A version that fails to load is reported as
  /// `TrackerProblem.rulesRefused(_:)` and the previous one keeps running.
  ///
  /// ```swift
  /// configuration.rulesDirectory = LuaRuleFolder(rulesFolderURL)
  /// ```
  public var rulesDirectory: LuaRuleFolder? {
    get { rulePackSource as? LuaRuleFolder }
    set { rulePackSource = newValue }
  }

  /// Loads the scripts of a signed pack installed with
  /// `Tracker.installRulePack(_:signature:)`; needed once `trustedPackKeys` are set.
  ///
  /// ```swift
  /// configuration.packLoader = LuaPackLoader()
  /// ```
  public var packLoader: LuaPackLoader? {
    get { rulePackLoader as? LuaPackLoader }
    set { rulePackLoader = newValue }
  }
}
