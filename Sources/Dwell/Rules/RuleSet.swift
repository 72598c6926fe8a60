/// The rules in force as one value: what every route from a rule file, a Swift array or an
/// installed pack to an engine carries, and where a rule set is validated.
///
/// One pipeline, whoever loads the rules:
///
/// - A ``RuleSet`` is the app's Swift rules, one ``RulePack`` (a Lua pack: its rules,
///   levels and plugins), extra listeners (the simulator's award log, a test's recorder),
///   the host values the pack's scripts see, and a generation that every change bumps.
/// - ``validate(strict:)`` is the one check of a set (``Rule/problems(_:)`` on the rules
///   it would run); nothing else decides whether rules may run.
/// - ``RulesInForce`` holds the set a tracker or the simulator keeps in force: it changes
///   it only when the result validates, and it is the one way into an engine, at launch
///   (``RulesInForce/launchConfiguration(base:)``) and on every change
///   (``RulesInForce/apply(to:)``).
/// - Tools that make one engine from a file (`dwell replay`, `dwell balance`) build a set
///   and take ``validated(base:)``.
///
/// The tracker (launch, the rules directory's reloads, `setRules`, installed packs),
/// `dwell sim` and `dwell test` (the simulator), `dwell replay`, `dwell balance` and the
/// tests all go through it.
package struct RuleSet: Sendable {
  /// The app's Swift rules (a JSON rules file's, for the tools), declared first.
  package var rules: [Rule]
  /// The rule pack, if any.
  package var pack: (any RulePack)?
  /// Listeners besides the pack's plugins.
  package var listeners: [any UsageListener]
  /// Values the pack's scripts read as `host.name`; kept for every later pack.
  package var hostValues: [String: HostValue] = [:]
  /// Bumped by every change ``RulesInForce`` accepts.
  package var generation = 0
  /// The app's levels (its configuration's), which rules' `level` parts may name besides the pack's.
  package var levels: [Level] = []

  /// A set of Swift rules, a pack and listeners.
  package init(rules: [Rule] = [], pack: (any RulePack)? = nil, listeners: [any UsageListener] = []) {
    self.rules = rules
    self.pack = pack
    self.listeners = listeners
  }

  /// Every rule in force: the Swift rules, then the pack's but those whose id a Swift rule
  /// has (the Swift rule, declared first, keeps the id).
  package var allRules: [Rule] {
    guard let packRules = pack?.rules, !packRules.isEmpty else { return rules }
    let ids = Set(rules.map(\.id))
    return rules + packRules.filter { !ids.contains($0.id) }
  }

  /// The pack's rules left out of ``allRules`` for a Swift rule's id.
  package var shadowedPackRules: [Rule] {
    guard let packRules = pack?.rules, !packRules.isEmpty, !rules.isEmpty else { return [] }
    let ids = Set(rules.map(\.id))
    return packRules.filter { ids.contains($0.id) }
  }

  /// What the engine hears events through: the pack (when it has scripts), then the
  /// other listeners.
  package var engineListeners: [any UsageListener] {
    ((pack as? any ScriptedRulePack).map { [$0] } ?? []) + listeners
  }

  /// Checks the set. `strict` checks the Swift rules and the whole pack together, so a
  /// pack's rule with a Swift rule's id is refused (what an app that sets rules is told);
  /// otherwise such a rule is left out (``shadowedPackRules``) and the rest is checked.
  ///
  /// - Throws: the first of ``Rule/problems(_:)``: a repeated or bad id, a bad condition,
  ///   points outside 0...1,000,000.
  package func validate(strict: Bool = true) throws(RuleError) {
    let checked = strict ? rules + (pack?.rules ?? []) : allRules
    if let first = Rule.problems(checked, levels: levels + (pack?.levels ?? [])).first { throw first }
  }

  /// The engine configuration for `base` with these rules, levels and listeners.
  package func configuration(base: Engine.Configuration) -> Engine.Configuration {
    var configuration = base
    configuration.rules = allRules
    configuration.levels = base.levels + (pack?.levels ?? [])
    configuration.listeners = engineListeners
    return configuration
  }

  /// ``configuration(base:)`` once the set validates (strictly): for a tool that makes one
  /// engine from a rules file.
  package func validated(base: Engine.Configuration) throws(RuleError) -> Engine.Configuration {
    var set = self
    set.levels += base.levels
    try set.validate()
    return configuration(base: base)
  }
}
