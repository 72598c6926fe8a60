internal import CLua
internal import Dwell

/// A loaded Lua state shared by the rules of one pack, behind a lock.
///
/// Scripted checks from the pack call into it on the engine's processing context. A check
/// that raises an error, runs out of instructions or memory is disabled (it never unlocks
/// its rule) and reported through ``LuaRulePack/onDiagnostic(_:)``.
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
  }

  /// Plugin names by event name, fixed at load.
  let subscriptions: [String: [String]]

  private let box: Locked<Box>
  private let handlers = Locked<[@Sendable (ScriptError) -> Void]>([])
  private let diagnosticsLog = Locked<[ScriptError]>([])

  init(state: consuming sending LuaState) {
    subscriptions = state.collector.subscriptions
    box = Locked(Box(state: state))
  }

  func onDiagnostic(_ handler: @escaping @Sendable (ScriptError) -> Void) {
    handlers.withLock { $0.append(handler) }
  }

  var diagnostics: [ScriptError] { diagnosticsLog.withLock { $0 } }

  var memoryInUse: Int { box.withLock { $0.state.memoryInUse } }

  var printed: [String] { box.withLock { $0.state.printed } }

  private func report(_ error: ScriptError) {
    diagnosticsLog.withLock {
      $0.append(error)
      if $0.count > 500 { $0.removeFirst($0.count - 500) }
    }
    for handler in handlers.withLock({ $0 }) { handler(error) }
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
      var actions: [UsageAction] = []
      for plugin in plugins where !box.disabledPlugins.contains(plugin) {
        ensureUsage(&box, usage)
        state.now = usage.instant
        state.actions.removeAll()
        state.pushReference(state.dispatchRef)
        lua_pushstring(L, plugin)
        lua_pushstring(L, name)
        state.pushReference(box.usage?.proxy ?? LUA_REFNIL)
        if let argument { lua_pushstring(L, argument) } else { lua_pushnil(L) }
        do {
          try state.protectedCall(arguments: 4, results: 0, usage: usage)
          actions += state.actions
          if let saved = try savedState(state, plugin), saved != box.savedStates[plugin] {
            box.savedStates[plugin] = saved
            actions.append(.saveState(source: plugin, data: saved))
          }
        } catch {
          box.disabledPlugins.insert(plugin)
          failures.append(ScriptError("plugin '\(plugin)': \((error as? ScriptError)?.message ?? "\(error)")"))
        }
        state.actions.removeAll()
      }
      return actions
    }
    for failure in failures { report(failure) }
    return actions
  }

  /// The plugin's state as JSON text, or throws when it cannot be saved.
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
      throw ScriptError("its state is larger than 64 KiB (\(text.utf8.count / 1024) KiB)")
    }
    return text
  }

  /// Gives plugins the states saved by earlier runs.
  func restore(states: [String: String]) {
    box.withLock { box in
      let state = box.state
      for plugin in Set(subscriptions.values.joined()) {
        guard let text = states[plugin], let value = try? JSONParser.parse(text) else { continue }
        state.pushReference(state.setStateRef)
        lua_pushstring(state.L, plugin)
        state.push(value)
        try? state.protectedCall(arguments: 2, results: 0)
        box.savedStates[plugin] = text
      }
    }
  }

  var published: [String: [String: JSONValue]] { box.withLock { $0.state.published } }

  func setHost(_ name: String, value: JSONValue) {
    box.withLock { box in
      let L = box.state.L
      lua_getglobal(L, "host")
      if dwell_lua_istable(L, -1) != 0 {
        lua_pushstring(L, name)
        box.state.push(value)
        lua_rawset(L, -3)
      }
      dwell_lua_pop(L, 1)
    }
  }

  func setHost(
    _ name: String, function: @escaping @Sendable ([JSONValue]) -> JSONValue, trampoline: dwell_lua_host_function
  ) {
    box.withLock { box in
      let L = box.state.L
      box.state.hostFunctions[name] = function
      lua_getglobal(L, "host")
      if dwell_lua_istable(L, -1) != 0 {
        lua_pushstring(L, name)
        lua_pushstring(L, name)
        dwell_lua_pushhost(L, trampoline, 1)
        lua_rawset(L, -3)
      }
      dwell_lua_pop(L, 1)
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
    let outcome = box.withLock { box -> Result<Bool, ScriptError> in
      if !box.disabled.isEmpty, box.disabled.contains(rule) { return .success(false) }
      let state = box.state
      let L = state.L
      ensureUsage(&box, usage)
      state.pushReference(ref)
      state.pushReference(box.usage?.proxy ?? LUA_REFNIL)
      do {
        try state.protectedCall(arguments: 1, results: 1, usage: usage)
      } catch {
        box.disabled.insert(rule)
        return .failure(ScriptError((error as? ScriptError)?.message ?? "\(error)", rule: rule))
      }
      let result = lua_toboolean(L, -1) != 0
      dwell_lua_pop(L, 1)
      return .success(result)
    }
    switch outcome {
    case .success(let holds): return holds
    case .failure(let error):
      report(error)
      return false
    }
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
