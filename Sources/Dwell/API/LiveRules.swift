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

  /// Every rule in force: the Swift rules, then the pack's but those whose id a Swift rule
  /// has (the Swift rule, declared first, keeps the id).
  var allRules: [Rule] {
    guard let packRules = pack?.rules, !packRules.isEmpty else { return rules }
    let ids = Set(rules.map(\.id))
    return rules + packRules.filter { !ids.contains($0.id) }
  }

  /// The pack's rules left out of ``allRules`` for a Swift rule's id.
  var shadowedPackRules: [Rule] {
    guard let packRules = pack?.rules, !packRules.isEmpty, !rules.isEmpty else { return [] }
    let ids = Set(rules.map(\.id))
    return packRules.filter { ids.contains($0.id) }
  }

  /// The engine configuration for `base` with these rules, levels and listeners.
  func configuration(base: Engine.Configuration) -> Engine.Configuration {
    var configuration = base
    configuration.rules = allRules
    configuration.levels = base.levels + (pack?.levels ?? [])
    configuration.listeners = ((pack as? any ScriptedRulePack).map { [$0] } ?? []) + listeners
    return configuration
  }
}
