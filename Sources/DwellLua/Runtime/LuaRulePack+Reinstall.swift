// A pack's scripts loaded again into a fresh state without parsing their definitions again (`dwell balance`'s users).
package import Dwell

extension LuaRulePack {
  /// What a load of the scripts found: the rules, the ids of the definitions in the order
  /// they ran, every id taken and the ids plugins may unlock.
  struct Known: Sendable {
    let rules: [Rule]
    let defined: [String]
    let ids: [String: String]
    let unlockable: Set<String>
  }

  /// The same scripts as a fresh install loads them: a new state in which every file runs
  /// again (so checks and plugins start with their upvalues, states and limits afresh), with
  /// the rules this pack found, bound to the new state's check functions, instead of every
  /// definition parsed and checked again. What `dwell balance` gives each simulated user: a
  /// pack of 20,000 tiers is parsed once per run, not once per user.
  ///
  /// When the files define other ids this time (a definition that failed inside a `pcall`
  /// the first time, say) or other checks, the scripts are loaded in full instead, as
  /// ``loadedAfresh()`` does: the result is always what a fresh load gives.
  /// - Parameter limits: the new state's limits (by default, this pack's).
  package func reinstalled(limits: ScriptLimits? = nil) throws(RuleError) -> LuaRulePack {
    let limits = limits ?? self.limits
    if let fresh = try? LuaRulePack(scripts: scripts, limits: limits, name: name, known: known) { return fresh }
    return try LuaRulePack(scripts: scripts, limits: limits, name: name)
  }

  /// Takes `known`'s rules for the definitions `state`'s files just ran (replaying), their
  /// checks bound to the functions kept this time, in order.
  ///
  /// - Throws: when the ids defined or the number of checks differ from `known`'s.
  static func adopt(_ known: Known, in state: LuaState) throws(RuleError) {
    state.collector.replaying = false
    let checks = state.collector.checks
    state.collector.checks = []
    guard state.collector.defined == known.defined else {
      throw RuleError("the scripts defined other rules than when they were first loaded")
    }
    var next = 0
    var rules = known.rules
    var short = false
    for index in rules.indices where rules[index].condition.containsCheck {
      guard let condition = rebind(rules[index].condition, checks, &next) else {
        short = true
        break
      }
      rules[index].condition = condition
    }
    guard !short, next == checks.count else {
      throw RuleError("the scripts defined other checks than when they were first loaded")
    }
    state.collector.rules = rules
    state.collector.ids = known.ids
    state.collector.unlockable = known.unlockable
  }

  /// `condition` with each check, in order, made anew on the function `checks[next]`;
  /// `nil` when there are fewer checks than that.
  private static func rebind(_ condition: Condition, _ checks: [Int32], _ next: inout Int) -> Condition? {
    switch condition {
    case .check:
      guard next < checks.count else { return nil }
      next += 1
      return .check(.init(LuaCheck(ref: checks[next - 1], rule: "")))
    case .all(let parts), .any(let parts):
      var rebound: [Condition] = []
      for part in parts {
        guard let part = rebind(part, checks, &next) else { return nil }
        rebound.append(part)
      }
      if case .all = condition { return .all(rebound) }
      return .any(rebound)
    case .within(let period, let inner):
      return rebind(inner, checks, &next).map { .within(period, $0) }
    default:
      return condition
    }
  }
}
