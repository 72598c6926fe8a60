internal import CLua
internal import Dwell
internal import Synchronization

/// A loaded Lua state shared by the rules of one pack, behind a lock.
///
/// Scripted checks from the pack call into it on the engine's processing context. A check
/// that raises an error, runs out of instructions or memory is disabled (it never unlocks
/// its rule) and reported through ``LuaRulePack/onDiagnostic(_:)``.
final class LuaRuntime: Sendable {
  private struct Box: ~Copyable {
    var state: LuaState
    var usageRef: Int32 = 0
    var usageKey: (UInt64, Int64) = (.max, .max)
    var disabled = Set<String>()
  }

  private let box: Mutex<Box>
  private let handlers = Mutex<[@Sendable (ScriptError) -> Void]>([])
  private let diagnosticsLog = Mutex<[ScriptError]>([])

  init(state: consuming sending LuaState) {
    box = Mutex(Box(state: state))
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

  /// Runs the check function `ref` of rule `rule` on `usage`.
  func evaluate(ref: Int32, rule: String, _ usage: UsageView) -> Bool {
    let outcome = box.withLock { box -> Result<Bool, ScriptError> in
      if box.disabled.contains(rule) { return .success(false) }
      let state = box.state
      let L = state.L
      let key = (usage.revision, usage.instant.nanoseconds)
      if key != box.usageKey {
        if box.usageRef != 0 { luaL_unref(L, dwell_lua_registryindex(), box.usageRef) }
        UsageTable.push(usage, into: state)
        box.usageRef = state.reference()
        box.usageKey = key
      }
      state.current = usage
      defer { state.current = nil }
      state.pushReference(ref)
      state.pushReference(box.usageRef)
      do {
        try state.protectedCall(arguments: 1, results: 1)
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

/// Builds the read-only `u` table scripted checks receive.
enum UsageTable {
  static func push(_ usage: UsageView, into state: LuaState) {
    let L = state.L
    // The real values...
    lua_createtable(L, 0, 8)
    lua_createtable(L, 0, 6)
    state.setField("seconds", number: usage.appSeconds)
    state.setField("sessions", integer: usage.sessions)
    state.setField("active_days", integer: usage.activeDays)
    state.setField("longest_streak", integer: usage.longestStreak)
    state.setField("current_streak", integer: usage.currentStreak)
    state.setField("today_seconds", number: usage.todaySeconds)
    readOnly(L)
    lua_setfield(L, -2, "app")
    dwell_lua_pushhost(L, screen, 0)
    lua_setfield(L, -2, "screen")
    state.setField("date", string: usage.today.description)
    state.setField("hour", integer: usage.hour)
    state.setField("weekday", integer: usage.today.weekday)
    state.setField("today_seconds", number: usage.todaySeconds)
    // ...behind a proxy.
    readOnly(L)
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
    let figures = usage.screen(state.describe(1))
    lua_createtable(L, 0, 3)
    state.setField("seconds", number: figures.seconds)
    state.setField("visits", integer: figures.visits)
    state.setField("today_seconds", number: figures.todaySeconds)
    return 1
  }
}
