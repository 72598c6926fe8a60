internal import CLua
internal import Dwell

/// A loaded Lua state shared by the rules of one pack, behind a lock.
///
/// Scripted checks and plugins call into it on the engine's processing context. A check or
/// plugin that raises an error or hits a limit is disabled (never retried) and reported
/// through ``LuaRulePack/onDiagnostic(_:)``; once the pack's budget for a tick is spent,
/// the rest of its calls wait for the next tick.
final class LuaRuntime: Sendable {
  private struct Box: ~Copyable {
    var state: LuaState
    /// The read-only `u` proxy, and the tables behind it, made once and refreshed in place.
    var usage: UsageTable.References?
    var usageKey: (UInt64, Int64) = (.max, .max)
    var disabled = Set<String>()
    var disabledPlugins = Set<String>()
    /// The last state saved per plugin, to save only changes.
    var savedStates: [String: String] = [:]
    /// Work each check ("rule") or plugin ("plugin:name") did in the current tick.
    var costs: [String: Int64] = [:]
    /// Saved states that did not load, to be stored aside with the next actions.
    var quarantined: [(String, String)] = []
    var printReported = false
  }

  /// Plugin names by event name, fixed at load.
  let subscriptions: [String: [String]]
  /// Where the pack's plugins keep their states: `lua:<pack>/<plugin>`.
  let namespace: String

  private let box: Locked<Box>
  private let handlers = Locked<[@Sendable (ScriptError) -> Void]>([])
  private let diagnosticsLog = Locked<[ScriptError]>([])

  init(state: consuming sending LuaState, pack: String) {
    subscriptions = state.collector.subscriptions
    namespace = "lua:\(pack)/"
    box = Locked(Box(state: state))
  }

  func onDiagnostic(_ handler: @escaping @Sendable (ScriptError) -> Void) {
    handlers.withLock { $0.append(handler) }
  }

  var diagnostics: [ScriptError] { diagnosticsLog.withLock { $0 } }

  var memoryInUse: Int { box.withLock { $0.state.memoryInUse } }

  /// The most bytes the state ever held.
  var memoryPeak: Int { box.withLock { $0.state.memoryPeak } }

  var printed: [String] { box.withLock { $0.state.printed } }

  private func report(_ errors: [ScriptError]) {
    guard !errors.isEmpty else { return }
    diagnosticsLog.withLock {
      $0 += errors
      if $0.count > 500 { $0.removeFirst($0.count - 500) }
    }
    let handlers = handlers.withLock { $0 }
    for error in errors { for handler in handlers { handler(error) } }
  }

  /// Starts the tick of `instant`, and collects what the state queued to report.
  private func enter(_ box: inout Box, _ instant: MonotonicInstant, _ failures: inout [ScriptError]) {
    if box.state.enterTick(instant) { box.costs.removeAll(keepingCapacity: true) }
    failures += box.state.output.reports
    box.state.output.reports.removeAll()
    if box.state.printTruncated, !box.printReported {
      box.printReported = true
      let limits = box.state.limits
      failures.append(
        ScriptError(
          "print keeps \(limits.printLines) lines of at most \(limits.printLineLength) characters; more were dropped (sandbox)"
        ))
    }
  }

  /// After a call that failed: disables `name` and, when the pack's budget for the tick ran
  /// out, every other check or plugin that spent a tenth of a call's budget in this tick.
  private func disable(_ name: String, _ error: ScriptError, _ box: inout Box, _ failures: inout [ScriptError]) {
    insert(name, into: &box)
    failures.append(error)
    guard error.packBudget else { return }
    let heavy = Int64(box.state.limits.instructionsPerCall / 10)
    for (other, cost) in box.costs where cost >= heavy && other != name {
      insert(other, into: &box)
      let what = other.hasPrefix("plugin:") ? "plugin '\(other.dropFirst(7))'" : "rule '\(other)'"
      failures.append(
        ScriptError(
          "\(what) used \(cost) of the pack's \(box.state.limits.instructionsPerTick) instructions per tick (sandbox)",
          rule: other.hasPrefix("plugin:") ? nil : other))
    }
  }

  private func insert(_ name: String, into box: inout Box) {
    if name.hasPrefix("plugin:") {
      box.disabledPlugins.insert(String(name.dropFirst(7)))
    } else {
      box.disabled.insert(name)
    }
  }

  // MARK: Plugins

  static func eventName(_ event: UsageEvent) -> (String, String?) {
    switch event {
    case .screenEntered(let name): return ("screen_enter", name)
    case .screenLeft(let name): return ("screen_leave", name)
    case .sessionStarted: return ("session_start", nil)
    case .paused: return ("pause", nil)
    case .dayStarted(let day): return ("day_start", day.description)
    case .unlocked(let id): return ("unlock", id)
    case .tick: return ("tick", nil)
    }
  }

  /// Runs the plugins subscribed to `event`; returns their actions and state changes.
  func receive(_ event: UsageEvent, usage: UsageView) -> [UsageAction] {
    let (name, argument) = Self.eventName(event)
    guard let plugins = subscriptions[name], !plugins.isEmpty else { return [] }
    var failures: [ScriptError] = []
    let actions = box.withLock { box -> [UsageAction] in
      let state = box.state
      let L = state.L
      enter(&box, usage.instant, &failures)
      var actions: [UsageAction] = box.quarantined.map { .saveState(source: "quarantine:" + $0.0, data: $0.1) }
      box.quarantined.removeAll()
      for plugin in plugins where !box.disabledPlugins.contains(plugin) {
        guard !state.tickSpent else { break }
        ensureUsage(&box, usage)
        state.now = usage.instant
        state.actions.removeAll()
        state.pushReference(state.dispatchRef)
        lua_pushstring(L, plugin)
        lua_pushstring(L, name)
        state.pushReference(box.usage?.proxy ?? LUA_REFNIL)
        if let argument { lua_pushstring(L, argument) } else { lua_pushnil(L) }
        do {
          defer { box.costs["plugin:" + plugin, default: 0] += state.lastWork }
          try state.protectedCall(arguments: 4, results: 0, usage: usage)
          actions += state.actions
          if let saved = try savedState(state, plugin), saved != box.savedStates[plugin] {
            box.savedStates[plugin] = saved
            actions.append(.saveState(source: namespace + plugin, data: saved))
          }
        } catch {
          var failure = error as? ScriptError ?? ScriptError("\(error)")
          failure.message = "plugin '\(plugin)': \(failure.message)"
          disable("plugin:" + plugin, failure, &box, &failures)
        }
        state.actions.removeAll()
      }
      failures += state.output.reports
      state.output.reports.removeAll()
      return actions
    }
    report(failures)
    return actions
  }

  /// The plugin's state as JSON text, or throws when it cannot be saved: too large, or a
  /// value that would not load again.
  private func savedState(_ state: LuaState, _ plugin: String) throws(ScriptError) -> String? {
    let L = state.L
    state.pushReference(state.getStateRef)
    lua_pushstring(L, plugin)
    try state.protectedCall(arguments: 1, results: 1)
    defer { dwell_lua_pop(L, 1) }
    let value: JSONValue
    do {
      value = try state.json(at: -1)
    } catch {
      throw ScriptError("its state cannot be saved: \(error.message)")
    }
    let text = value.rendered()
    guard text.utf8.count <= 64 << 10 else {
      throw ScriptError("its state is larger than 64 KiB (\(text.utf8.count / 1024) KiB) (sandbox limit)")
    }
    guard (try? JSONParser.parse(text)) != nil else {
      throw ScriptError("its state cannot be saved: it would not load")
    }
    return text
  }

  /// Gives plugins the states saved by earlier runs (their own pack's; a state saved under
  /// the plugin's bare name by an older version is taken when there is none). A state that
  /// does not load is reported, set aside under `quarantine:<key>`, and the plugin starts afresh.
  func restore(states: [String: String]) {
    var failures: [ScriptError] = []
    box.withLock { box in
      let state = box.state
      for plugin in Set(subscriptions.values.joined()).sorted() {
        let key = namespace + plugin
        guard let text = states[key] ?? states[plugin] else { continue }
        let top = lua_gettop(state.L)
        do {
          let value: JSONValue
          do { value = try JSONParser.parse(text) } catch { throw ScriptError("it is not valid JSON") }
          state.pushReference(state.setStateRef)
          lua_pushstring(state.L, plugin)
          guard state.push(value) else {
            throw ScriptError("it is deeper or larger than the sandbox allows")
          }
          try state.protectedCall(arguments: 2, results: 0)
          box.savedStates[plugin] = text
        } catch {
          lua_settop(state.L, top)
          box.quarantined.append((key, text))
          failures.append(
            ScriptError(
              "plugin '\(plugin)': its saved state did not load (\((error as? ScriptError)?.message ?? "\(error)")); "
                + "it starts afresh and the old state is kept under quarantine:\(key)"))
        }
      }
    }
    report(failures)
  }

  var published: [String: [String: JSONValue]] { box.withLock { $0.state.published } }

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

  private func ensureUsage(_ box: inout Box, _ usage: UsageView) {
    let key = (usage.revision, usage.instant.nanoseconds)
    guard key != box.usageKey else { return }
    let state = box.state
    let references = box.usage ?? UsageTable.make(in: state)
    UsageTable.refresh(references, with: usage, in: state)
    box.usage = references
    box.usageKey = key
  }

  /// Runs the check function `ref` of rule `rule` on `usage`.
  func evaluate(ref: Int32, rule: String, _ usage: UsageView) -> Bool {
    var failures: [ScriptError] = []
    let holds = box.withLock { box -> Bool in
      if !box.disabled.isEmpty, box.disabled.contains(rule) { return false }
      let state = box.state
      let L = state.L
      enter(&box, usage.instant, &failures)
      guard !state.tickSpent else { return false }
      ensureUsage(&box, usage)
      state.pushReference(ref)
      state.pushReference(box.usage?.proxy ?? LUA_REFNIL)
      do {
        defer { box.costs[rule, default: 0] += state.lastWork }
        try state.protectedCall(arguments: 1, results: 1, usage: usage)
      } catch {
        var failure = error as? ScriptError ?? ScriptError("\(error)")
        failure.rule = rule
        disable(rule, failure, &box, &failures)
        return false
      }
      let result = lua_toboolean(L, -1) != 0
      dwell_lua_pop(L, 1)
      return result
    }
    if !failures.isEmpty { report(failures) }
    return holds
  }
}

/// The read-only `u` table scripted checks receive: made once per state, its figures
/// refreshed in place when they change, so a tick allocates nothing in Lua.
enum UsageTable {
  /// Registry references to the proxy handed to scripts and the tables it reads.
  struct References {
    var proxy: Int32
    var root: Int32
    var app: Int32
  }

  static func make(in state: LuaState) -> References {
    let L = state.L
    lua_createtable(L, 0, 8)
    lua_pushvalue(L, -1)
    let root = state.reference()
    lua_createtable(L, 0, 6)
    lua_pushvalue(L, -1)
    let app = state.reference()
    readOnly(L)
    lua_setfield(L, -2, "app")
    dwell_lua_pushhost(L, screen, 0)
    lua_setfield(L, -2, "screen")
    readOnly(L)
    return References(proxy: state.reference(), root: root, app: app)
  }

  static func refresh(_ references: References, with usage: UsageView, in state: LuaState) {
    let L = state.L
    state.pushReference(references.app)
    state.setField("seconds", number: usage.appSeconds)
    state.setField("sessions", integer: usage.sessions)
    state.setField("active_days", integer: usage.activeDays)
    state.setField("longest_streak", integer: usage.longestStreak)
    state.setField("current_streak", integer: usage.currentStreak)
    state.setField("today_seconds", number: usage.todaySeconds)
    dwell_lua_pop(L, 1)
    state.pushReference(references.root)
    state.setField("date", string: usage.today.description)
    state.setField("hour", integer: usage.hour)
    state.setField("weekday", integer: usage.today.weekday)
    state.setField("today_seconds", number: usage.todaySeconds)
    dwell_lua_pop(L, 1)
  }

  /// Replaces the table on top of the stack by a read-only proxy of it.
  private static func readOnly(_ L: OpaquePointer) {
    lua_createtable(L, 0, 0)  // proxy
    lua_createtable(L, 0, 3)  // metatable
    lua_pushvalue(L, -3)
    lua_setfield(L, -2, "__index")
    dwell_lua_pushhost(L, refuseWrite, 0)
    lua_setfield(L, -2, "__newindex")
    lua_pushboolean(L, 0)
    lua_setfield(L, -2, "__metatable")
    _ = lua_setmetatable(L, -2)
    dwell_lua_remove(L, -2)
  }

  private static let refuseWrite: dwell_lua_host_function = { L in
    guard let state = LuaState.owner(L) else { return 0 }
    return state.raise("\(state.whereCalled()) usage figures are read-only")
  }

  private static let screen: dwell_lua_host_function = { L in
    guard let state = LuaState.owner(L), let usage = state.current else { return 0 }
    guard lua_type(L, 1) == LUA_TSTRING else {
      return state.raise("\(state.whereCalled()) u.screen needs a screen name, as in u.screen(\"Lessons\")")
    }
    let figures = usage.pointee.screen(state.describe(1))
    lua_createtable(L, 0, 3)
    state.setField("seconds", number: figures.seconds)
    state.setField("visits", integer: figures.visits)
    state.setField("today_seconds", number: figures.todaySeconds)
    return 1
  }
}
