public import Dwell
public import Foundation

/// A folder (or file) of Lua scripts that a tracker loads at launch and reloads when it
/// changes, through ``RuleWatcher``.
///
/// ```swift
/// configuration.rulesDirectory = LuaRuleFolder(Bundle.main.url(forResource: "rules", withExtension: nil)!)
/// ```
public struct LuaRuleFolder: RulePackSource {
  /// The folder or `.lua` file.
  public var url: URL
  /// The sandbox's limits for the pack's scripts.
  public var limits: ScriptLimits
  /// How often the folder is checked for changes.
  public var interval: Duration

  /// Creates a source; nothing is read until a tracker loads it.
  public init(_ url: URL, limits: ScriptLimits = ScriptLimits(), interval: Duration = .milliseconds(500)) {
    self.url = url
    self.limits = limits
    self.interval = interval
  }

  public func load() throws(RuleError) -> any RulePack {
    try LuaRulePack(contentsOf: url.path, limits: limits)
  }

  package func watch(_ reload: @escaping @Sendable (Result<any RulePack, RuleError>) -> Void) -> any RulePackWatch {
    let limits = limits
    let watcher = RuleWatcher(path: url.path, limits: limits, interval: interval) { result in
      reload(
        result.flatMap { source -> Result<any RulePack, RuleError> in
          guard let pack = source.pack else {
            return .failure(RuleError("\(source.rules.count) rules but no Lua pack"))
          }
          return .success(pack)
        })
    }
    return WatcherWork(watcher: watcher)  // the baseline is taken now; polling starts with start()
  }
}

/// A watcher as a tracker holds it: started after the launch load, stopped when cancelled.
private struct WatcherWork: RulePackWatch {
  let watcher: RuleWatcher
  func start() { watcher.start() }
  func cancel() { watcher.stop() }
}
