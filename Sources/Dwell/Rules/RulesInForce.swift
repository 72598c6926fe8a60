/// The rule set a tracker or the simulator keeps in force across engines, and the one way
/// a rule set gets into an engine (see ``RuleSet`` for the whole pipeline).
package final class RulesInForce: Sendable {
  private struct Held {
    var set: RuleSet
    /// The generation the newest engine was made with.
    var built = 0
  }

  private let held: Locked<Held>

  /// Holds no rules.
  package init() {
    held = Locked(Held(set: RuleSet()))
  }

  /// Holds `set` once it validates (``RuleSet/validate(strict:)``, not strict).
  ///
  /// - Throws: ``RuleError`` when it does not.
  package init(_ set: RuleSet) throws(RuleError) {
    try set.validate(strict: false)
    held = Locked(Held(set: set))
  }

  /// The set in force.
  package var current: RuleSet { held.withLock { $0.set } }

  /// Changes the set if the result validates (``RuleSet/validate(strict:)``), bumps its
  /// generation and gives a scripted pack the host values. Not yet in any engine: call
  /// ``apply(to:)``.
  ///
  /// - Returns: the set now in force.
  /// - Throws: ``RuleError`` when the result does not validate; the set is unchanged.
  @discardableResult
  package func change(strict: Bool = true, _ change: (inout RuleSet) -> Void) throws(RuleError) -> RuleSet {
    let result = held.withLock { held -> Result<RuleSet, RuleError> in
      var next = held.set
      change(&next)
      do throws(RuleError) {
        try next.validate(strict: strict)
      } catch {
        return .failure(error)
      }
      next.generation += 1
      held.set = next
      return .success(next)
    }
    let set = try result.get()
    if let pack = set.pack as? any ScriptedRulePack {
      for (name, value) in set.hostValues { pack.setHostValue(name, value) }
    }
    return set
  }

  /// ``change(strict:_:)``, then ``apply(to:)`` to `engine` when there is one: a reload.
  @discardableResult
  package func change(
    strict: Bool = true, in engine: Engine?, _ change: (inout RuleSet) -> Void
  ) throws(RuleError) -> RuleSet {
    let set = try self.change(strict: strict, change)
    if let engine { apply(to: engine) }
    return set
  }

  /// Keeps `value` as `host.name` for this pack's scripts and every later pack's.
  package func setHostValue(_ name: String, _ value: HostValue) {
    let pack = held.withLock { held in
      held.set.hostValues[name] = value
      return held.set.pack
    }
    (pack as? any ScriptedRulePack)?.setHostValue(name, value)
  }

  /// The configuration a new engine is made with: `base` with the set in force, which
  /// the engine is then counted as built with.
  package func launchConfiguration(base: Engine.Configuration) -> Engine.Configuration {
    held.withLock { held in
      held.built = held.set.generation
      return held.set.configuration(base: base)
    }
  }

  /// Whether the set changed since the newest engine was made (it was being made).
  package var changedSinceLaunch: Bool { held.withLock { $0.set.generation != $0.built } }

  /// Puts the set in force in `engine`, again if it changed meanwhile (two threads setting
  /// rules at once end with the later set). Rules already unlocked stay unlocked.
  package func apply(to engine: Engine) {
    while true {
      let set = current
      engine.putInForce(set)
      if current.generation == set.generation { return }
    }
  }
}
