// One pack's loaded Lua state behind a lock: running checks, host values and reports.
internal import CLuaSandbox
internal import Dwell

/// A loaded Lua state shared by the rules of one pack, behind a lock.
///
/// Scripted checks and plugins call into it on the engine's processing context. A check or
/// plugin that raises an error or hits a limit is disabled (never retried) and reported
/// through ``LuaRulePack/onDiagnostic(_:)``; once the pack's budget for a tick is spent,
/// the rest of its calls wait for the next tick.
final class LuaRuntime: Sendable {
  struct Box: ~Copyable {
    var state: LuaState
    /// The read-only `u` proxy, and the tables behind it, made once and refreshed in place.
    var usage: UsageTable.References?
    /// The revision, instant and period (its first day, `Int32.min` for none) of the usage shown.
    var usageKey: (UInt64, Int64, Int32) = (.max, .max, .max)
    var disabled = Set<String>()
    /// The checks (by function reference) whose last run read no figure that changes
    /// with time (``LuaState/readsTime``).
    var steady = Set<Int32>()
    var disabledPlugins = Set<String>()
    /// Whether each plugin (by index in `plugins`) ran since its state was last saved.
    var unsaved: [Bool]
    /// The last state saved per plugin, to save only changes.
    var savedStates: [String: String] = [:]
    /// The value each plugin's state had when last read whole, to skip writing out and
    /// checking again a state no handler changed (see `savedState`).
    var lastStates = StateCache()
    /// The day the usage table's date and weekday were set for.
    var usageDay: Day?
    /// Work each check ("rule") or plugin ("plugin:name") did in the current tick.
    var costs: [String: Int64] = [:]
    /// Work of each check or plugin in the ticks before, and the check function of each rule
    /// with a cost: what the sustained budget's problem names.
    var pastCosts: [String: Int64] = [:]
    var costRefs: [String: Int32] = [:]
    /// Saved states that did not load, to be stored aside with the next actions.
    var quarantined: [(String, String)] = []
    var printReported = false
  }

  /// The pack's plugins, sorted; the ones subscribed to each event (by ``eventNames``
  /// index), as indices in subscription order; registry references to both names.
  let plugins: [String]
  let subscribers: [[Int]]
  /// Beside ``subscribers``: a registry reference to the plugin's one handler of the
  /// event, called directly, or `LUA_NOREF` (it has several: `dispatch` runs them).
  let soleHandlers: [[Int32]]
  let pluginRefs: [Int32]
  let eventRefs: [Int32]
  /// Each plugin's key in the costs (`plugin:name`), made once rather than at every call.
  let costKeys: [String]
  /// Where the pack's plugins keep their states: `lua:<pack>/<plugin>` (see
  /// ``namespace(of:)``).
  let namespace: String

  let box: Locked<Box>
  private let handlers = Locked<[@Sendable (ScriptError) -> Void]>([])
  private let diagnosticsLog = Locked<[ScriptError]>([])
  private let printHandlers = Locked<[@Sendable (String) -> Void]>([])

  init(state: consuming sending LuaState, pack: String) {
    let subscriptions = state.collector.subscriptions
    let plugins = Set(subscriptions.values.joined()).sorted()
    self.plugins = plugins
    let subscribers = Self.eventNames.map { event in
      (subscriptions[event] ?? []).compactMap { plugins.firstIndex(of: $0) }
    }
    self.subscribers = subscribers
    let sole = state.collector.soleHandlers
    soleHandlers = zip(Self.eventNames, subscribers).map { event, indices in
      indices.map { sole[event]?[plugins[$0]] ?? LUA_NOREF }
    }
    var references: [Int32] = []
    for name in plugins + Self.eventNames {
      lua_pushstring(state.L, name)
      references.append(state.reference())
    }
    pluginRefs = Array(references.prefix(plugins.count))
    costKeys = plugins.map { "plugin:" + $0 }
    eventRefs = Array(references.dropFirst(plugins.count))
    namespace = Self.namespace(of: pack)
    box = Locked(Box(state: state, unsaved: Array(repeating: false, count: plugins.count)))
  }

  func onDiagnostic(_ handler: @escaping @Sendable (ScriptError) -> Void) {
    handlers.withLock { $0.append(handler) }
  }

  func onPrint(_ handler: @escaping @Sendable (String) -> Void) {
    printHandlers.withLock { $0.append(handler) }
  }

  /// Hands lines scripts printed to the print handlers (outside the state's lock).
  func deliver(_ lines: [String]) {
    let handlers = printHandlers.withLock { $0 }
    for line in lines { for handler in handlers { handler(line) } }
  }

  var diagnostics: [ScriptError] { diagnosticsLog.withLock { $0 } }

  var memoryInUse: Int { box.withLock { $0.state.memoryInUse } }

  /// The most bytes the state ever held.
  var memoryPeak: Int { box.withLock { $0.state.memoryPeak } }

  var printed: [String] { box.withLock { $0.state.printed } }

  func report(_ errors: [ScriptError]) {
    guard !errors.isEmpty else { return }
    diagnosticsLog.withLock {
      $0 += errors
      if $0.count > 500 { $0.removeFirst($0.count - 500) }
    }
    let handlers = handlers.withLock { $0 }
    for error in errors { for handler in handlers { handler(error) } }
  }

  /// Starts the tick of `instant`, and collects what the state queued to report.
  func enter(_ box: inout Box, _ instant: MonotonicInstant, _ failures: inout [ScriptError]) {
    if box.state.sustain(instant) { stopSustained(&box, &failures) }
    if box.state.enterTick(instant), !box.costs.isEmpty {
      for (name, cost) in box.costs { box.pastCosts[name, default: 0] &+= cost }
      box.costs.removeAll(keepingCapacity: true)
    }
    if !box.state.output.reports.isEmpty {
      failures += box.state.output.reports
      box.state.output.reports.removeAll()
    }
    if box.state.printTruncated, !box.printReported {
      box.printReported = true
      let limits = box.state.limits
      failures.append(
        ScriptError(
          "print keeps \(limits.printLines) lines of at most \(limits.printLineLength) characters; more were dropped (sandbox)"
        ))
    }
  }

  /// After a call that failed: disables `name`, unless the call ran out of what was left
  /// of the pack's budget for the tick while `name` stayed within its share of it.
  ///
  /// Each check and plugin's share of a tick is the pack's budget per tick divided among
  /// them all (``LuaState/callables``). When the budget runs out, whichever call it runs
  /// out in, the checks and plugins that spent more than their share in the tick are
  /// disabled; one that stayed within its share only waits, like every call after it, for
  /// the next tick. Within their shares all of them together cannot spend the budget, so
  /// one over its share is found unless work no check or plugin is charged for spent it;
  /// then nothing is disabled and the rest of the tick's calls wait.
  func disable(_ name: String, _ error: ScriptError, _ box: inout Box, _ failures: inout [ScriptError]) {
    guard error.packBudget else {
      insert(name, into: &box)
      failures.append(error)
      return
    }
    let tickWork = box.state.tickWork  // cut while the pack is throttled
    let share = tickWork / Int64(max(box.state.callables, 1))
    for (other, cost) in box.costs.sorted(by: { $0.key < $1.key }) where cost > share {
      insert(other, into: &box)
      let plugin = other.hasPrefix("plugin:")
      let what = plugin ? "plugin '\(other.dropFirst(7))'" : "rule '\(other)'"
      var problem = ScriptError(
        "\(what) used \(cost) of the pack's \(tickWork) instructions per tick, more than its share "
          + "of \(share) (the tick's budget shared by \(box.state.callables) checks and plugins\(box.state.throttleNote)) "
          + "(sandbox)",
        rule: plugin ? nil : other)
      if other == name { problem.message = error.message + "; " + problem.message }
      failures.append(problem)
    }
  }

  /// The pack stayed throttled a whole window: the check or plugin that did the most work
  /// since the pack loaded is disabled and the others go on. One problem, naming it.
  private func stopSustained(_ box: inout Box, _ failures: inout [ScriptError]) {
    let costs = box.pastCosts.merging(box.costs, uniquingKeysWith: &+)
    let heaviest = costs.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    var who: String?
    if let name = heaviest, name.hasPrefix("plugin:") {
      let plugin = String(name.dropFirst(7))
      who = "\(box.state.collector.places[plugin].map { $0 + " " } ?? "")plugin '\(plugin)'"
    } else if let name = heaviest {
      let place = box.costRefs[name].map { box.state.placeOfFunction($0) } ?? ""
      who = "\(place.isEmpty ? "" : place + " ")rule '\(name)'"
    }
    var problem = box.state.sustainedProblem(heaviest: who)
    if let heaviest {
      insert(heaviest, into: &box)
      box.pastCosts[heaviest] = nil
      box.costs[heaviest] = nil
      box.state.resumeAfterSustainedStop()
      if !heaviest.hasPrefix("plugin:") { problem.rule = heaviest }
    }
    failures.append(problem)
  }

  private func insert(_ name: String, into box: inout Box) {
    if name.hasPrefix("plugin:") {
      box.disabledPlugins.insert(String(name.dropFirst(7)))
    } else {
      box.disabled.insert(name)
    }
  }

  /// What plugins published, by plugin and key (the texts kept, read back; a text that
  /// does not parse, which rendering never makes, reads as `null`).
  var published: [String: [String: JSONValue]] {
    let texts = box.withLock { $0.state.published }
    return texts.mapValues { $0.mapValues { (try? JSONParser.parse($0)) ?? .null } }
  }

  /// Sets `host.name`: raw, in a protected call, within the sandbox's value limits.
  func setHost(_ name: String, value: JSONValue) {
    let failure = box.withLock { box -> ScriptError? in
      let state = box.state
      let top = lua_gettop(state.L)
      defer { lua_settop(state.L, top) }
      guard state.push(value) else {
        return ScriptError("host.\(name): the value is deeper or larger than the sandbox allows; not set")
      }
      return state.setHostField(name) ? nil : ScriptError("host.\(name): could not be set")
    }
    if let failure { report([failure]) }
  }

  func setHost(
    _ name: String, function: @escaping @Sendable ([JSONValue]) -> JSONValue, trampoline: dwell_lua_host_function
  ) {
    box.withLock { box in
      let state = box.state
      let top = lua_gettop(state.L)
      defer { lua_settop(state.L, top) }
      state.hostFunctions[name] = function
      lua_pushstring(state.L, name)
      dwell_lua_pushhost(state.L, trampoline, 1)
      _ = state.setHostField(name)
    }
  }

  func ensureUsage(_ box: inout Box, _ usage: UsageFigures) {
    let key = (usage.revision, usage.instant.nanoseconds, usage.period?.lowerBound.ordinal ?? .min)
    guard key != box.usageKey else { return }
    let state = box.state
    var references = box.usage ?? UsageTable.make(in: state)
    UsageTable.refresh(&references, with: usage, in: state, newDay: box.usageDay != usage.today)
    box.usage = references
    box.usageDay = usage.today
    box.usageKey = key
  }

  /// Whether check `ref` of rule `rule` may answer otherwise with time alone: it has not
  /// run yet, or its last run read a figure that changes with time or read `host`. A
  /// disabled check never changes.
  func changesWithTime(ref: Int32, rule: String) -> Bool {
    box.withLock { box in
      !box.steady.contains(ref) && (box.disabled.isEmpty || !box.disabled.contains(rule))
    }
  }

  /// Runs the check function `ref` of rule `rule` on `usage`: whether it returned true.
  func evaluate(ref: Int32, rule: String, _ usage: UsageFigures) -> Bool {
    var failures: [ScriptError] = []
    var prints: [String] = []
    let holds = box.withLock { box -> Bool in
      if !box.disabled.isEmpty, box.disabled.contains(rule) { return false }
      let state = box.state
      let L = state.L
      defer { prints = state.takePrints() }
      enter(&box, usage.instant, &failures)
      guard !state.tickSpent else {
        box.steady.remove(ref)  // not run: it runs at the next second
        return false
      }
      ensureUsage(&box, usage)
      state.pushReference(ref)
      state.pushReference(box.usage?.proxy ?? LUA_REFNIL)
      state.readsTime = false
      // A check stopped before it answered may read what changes with time once it runs whole.
      var answered = false
      defer { if answered && !state.readsTime { box.steady.insert(ref) } else { box.steady.remove(ref) } }
      do {
        // Work is counted in steps of the hook: a check that did less than one step cost
        // nothing that could make it the heavy one when the pack's budget runs out.
        defer {
          if state.lastWork > 0 {
            box.costs[rule, default: 0] += state.lastWork
            box.costRefs[rule] = ref
          }
        }
        try state.protectedCall(arguments: 1, results: 1, usage: usage)
        answered = true
      } catch {
        var failure = error as? ScriptError ?? ScriptError("\(error)")
        failure.rule = rule
        disable(rule, failure, &box, &failures)
        return false
      }
      // true unlocks; false, nil or nothing is "not yet"; anything else is a mistake (a
      // table or a number would be true to Lua), reported once: the check is disabled.
      let type = lua_type(L, -1)
      let result = lua_toboolean(L, -1) != 0
      dwell_lua_pop(L, 1)
      guard type == LUA_TBOOLEAN || type == LUA_TNIL else {
        let returned = String(cString: lua_typename(L, type))
        let failure = ScriptError(
          "\(state.placeOfFunction(ref)) check returned a \(returned); a check returns true or false", rule: rule)
        disable(rule, failure, &box, &failures)
        return false
      }
      return result
    }
    if !failures.isEmpty { report(failures) }
    if !prints.isEmpty { deliver(prints) }
    return holds
  }
}
