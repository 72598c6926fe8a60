/// The rules a tracker keeps in force across engines (a late store open, `erase()`,
/// `retryStore()`): the app's Swift rules and listeners, a rule pack, and the host values
/// the pack's scripts see.
struct LiveRules {
  var rules: [Rule]
  var pack: (any RulePack)?
  var listeners: [any UsageListener]
  var hostValues: [String: HostValue] = [:]
  /// Bumped by every change; `built` is the generation the newest engine was made with.
  var generation = 0
  var built = 0

  /// Every rule in force: the Swift rules, then the pack's.
  var allRules: [Rule] { rules + (pack?.rules ?? []) }

  /// The engine configuration for `base` with these rules, levels and listeners.
  func configuration(base: Engine.Configuration) -> Engine.Configuration {
    var configuration = base
    configuration.rules = allRules
    configuration.levels = base.levels + (pack?.levels ?? [])
    configuration.listeners = ((pack as? any ScriptedRulePack).map { [$0] } ?? []) + listeners
    return configuration
  }
}
