internal import Foundation

/// Rules as live data owned by the tracker: set them, hot-reload a rules directory, expose
/// host values to scripts; what is set stays in force across engines.
extension Tracker {
  /// Puts a new rule set in force, atomically: the app's Swift rules and a rule pack (Lua:
  /// its rules, levels and plugins). The pack's scripts get the host values set so far. Rules
  /// already unlocked stay unlocked. The set stays in force across `erase()`,
  /// `retryStore()` and a store that opens late; a rules directory's reloads replace only
  /// the pack.
  ///
  /// ```swift
  /// try tracker.setRules([Rule("regular", when: .streak(4))], pack: try LuaRulePack(contentsOf: folder))
  /// ```
  /// - Throws: ``RuleError`` when the set is invalid (a repeated id, say, between a Swift
  ///   rule and a pack's, or points outside 0...1,000,000); it is also reported as
  ///   ``TrackerProblem/rulesRefused(_:)``, and the previous rules keep running. (The
  ///   rules of a configuration, which nobody can catch, run without their bad rules
  ///   instead: see ``Configuration/validate()``.)
  public func setRules(_ rules: [Rule] = [], pack: (any RulePack)? = nil) throws(RuleError) {
    try setRules(rules, pack: pack, listeners: [])
  }

  /// ``setRules(_:pack:)`` with other listeners besides the pack's plugins (the harness's
  /// award log, tests' recording listeners).
  package func setRules(_ rules: [Rule], pack: (any RulePack)?, listeners: [any UsageListener]) throws(RuleError) {
    try update { live in
      live.rules = rules
      live.pack = pack
      live.listeners = listeners
    }
  }

  /// Exposes a value to the rule pack's scripts as `host.name`; it is kept and given to
  /// every later pack too.
  ///
  /// ```swift
  /// tracker.setHostValue("level", 3)
  /// ```
  public func setHostValue(_ name: String, _ value: HostValue) {
    live.setHostValue(name, value)
  }

  /// The rule pack in force, if any (the one set, loaded from the rules directory, or installed).
  public var rulePack: (any RulePack)? { live.current.pack }

  /// The rules in force: the app's and the pack's.
  package var rules: [Rule] { live.current.allRules }

  /// Replaces only the pack (a reload, a pack loaded at launch, an installed pack), keeping
  /// the Swift rules. `strict` (``installRulePack(_:signature:)``, which the app calls)
  /// refuses a pack with a rule whose id a Swift rule has; otherwise (the rules directory
  /// and its reloads, the installed pack at launch) that rule of the pack is left out, the
  /// Swift rule and the rest of the pack run, and it is reported.
  func setPack(_ pack: any RulePack, strict: Bool = false) throws(RuleError) {
    try update(strict: strict) { $0.pack = pack }
  }

  /// Changes the rules in force if the result validates (``RuleSet/validate(strict:)``),
  /// then puts them in force. `strict` validates the Swift rules and the whole pack
  /// together (``setRules(_:pack:)``); otherwise a pack's rules shadowed by a Swift rule's
  /// id are left out and reported.
  func update(strict: Bool = true, _ change: (inout RuleSet) -> Void) throws(RuleError) {
    let set: RuleSet
    do {
      set = try live.change(strict: strict, change)
    } catch {
      report(.rulesRefused(error))
      throw error
    }
    let shadowed = set.shadowedPackRules
    if !shadowed.isEmpty {
      let problems = shadowed.map { rule in
        ConfigurationError.Problem.rule(
          RuleError(rule: rule.id, "a Swift rule has the same id; the pack's rule is left out, the Swift rule kept"))
      }
      report(.invalidConfiguration(ConfigurationError(problems: problems)))
    }
    if let engine { live.apply(to: engine) }
  }

  /// After an engine is installed: puts in force what was set while it was being made.
  func catchUpRules(_ engine: Engine) {
    if live.changedSinceLaunch { live.apply(to: engine) }
  }

  // MARK: The rules directory

  /// Loads the configured rules directory before the first engine is made. Its watch is
  /// made first, so its baseline is the folder before this load: a save at any moment
  /// after (while the store opens, say) is reloaded once watching starts.
  func loadRulesDirectory() {
    guard let source = configuration.rulePackSource else { return }
    let work = source.watch { [weak self] result in
      guard let self else { return }
      switch result {
      // An installed pack keeps its slot: the directory's reloads wait behind it.
      case .success(let pack) where self.installedPackVersion.withLock({ $0 }) == nil: try? self.setPack(pack)
      case .success: break
      case .failure(let error): self.report(.rulesRefused(error))
      }
    }
    watch.withLock {
      $0?.cancel()
      $0 = work
    }
    do {
      try setPack(try source.load())
    } catch {
      // Reported by setPack, or here when the pack did not load.
      if lastProblem != .rulesRefused(error) { report(.rulesRefused(error)) }
    }
  }

  /// Starts the rules directory's watch; each version that loads replaces the pack.
  func startWatchingRules() {
    watch.withLock { $0?.start() }
  }
}
