// One sandboxed Lua 5.4 state: opening it from an allow-list and calling into it within its limits.
internal import CLua
internal import Dwell

/// One sandboxed Lua 5.4 state. Not thread-safe: ``LuaRuntime`` serialises access.
///
/// The prelude (`prelude.lua`) builds what scripts see from an allow-list: each file runs
/// in its own environment over frozen library tables. Every call runs under a work budget
/// (its own, and what is left of the pack's for the tick) and a time backstop, every
/// allocation under the memory cap, all enforced in C so Lua errors never unwind a Swift
/// frame. Host functions read script values raw (no metamethods run inside them).
final class LuaState {
  let L: OpaquePointer
  let limits: ScriptLimits
  private let c: UnsafeMutablePointer<dwell_lua_limits>
  /// Lines scripts printed, newest last (bounded), and whether some were cut or dropped.
  var printed: [String] = []
  var printTruncated = false
  /// The usage being evaluated, for `u.screen(name)`: set only for the length of one call
  /// into Lua (a pointer, because a stored copy would cost retains on every check and
  /// would make the engine copy its screen table on its next change).
  var current: UnsafePointer<UsageView>?
  /// Definitions collected while loading.
  var collector = Collector()

  struct Collector {
    var rules: [Rule] = []
    var ids = Set<String>()
    var file = ""
    var levels: [Level] = []
    /// Plugin names by event.
    var subscriptions: [String: [String]] = [:]
    /// Definitions named but not yet given their table (see ``LuaRuleParser``).
    var pending: [String: LuaRuleParser.Pending] = [:]
  }

  /// Actions plugins asked for during the current dispatch, and the pack's output so far.
  var actions: [UsageAction] = []
  var output = PluginActions.Output()
  /// What plugins published, by plugin and key.
  var published: [String: [String: JSONValue]] = [:]
  /// Functions the host exposes as `host.name(...)`.
  var hostFunctions: [String: @Sendable ([JSONValue]) -> JSONValue] = [:]
  /// The instant of the current dispatch (for notifications).
  var now = MonotonicInstant(nanoseconds: 0)
  /// The prelude's functions, and the table behind the scripts' read-only `host`.
  var dispatchRef: Int32 = 0
  var getStateRef: Int32 = 0
  var setStateRef: Int32 = 0
  private var newEnvironmentRef: Int32 = 0
  private(set) var hostRef: Int32 = 0

  /// The tick (second of the clock) being spent, and what the pack spent in it so far.
  private var window: Int64 = .min
  private(set) var tickWork: Int64 = 0
  private var tickNanos: Int64 = 0
  /// Work the last call did.
  private(set) var lastWork: Int64 = 0

  /// Creates a state and runs the prelude; `definitions` become the prelude's
  /// `__dwell_<name>` functions.
  init(limits: ScriptLimits, definitions: [(String, dwell_lua_host_function)]) throws(ScriptError) {
    self.limits = limits
    c = .allocate(capacity: 1)
    c.initialize(to: dwell_lua_limits())
    c.pointee.limit = max(limits.memory, 64 << 10)
    guard let state = dwell_lua_newstate(c) else {
      c.deallocate()
      throw ScriptError("cannot create a Lua state")
    }
    L = state
    dwell_lua_extraspace(L).pointee = Unmanaged.passUnretained(self).toOpaque()
    let libraries: [(String, lua_CFunction)] = [
      ("_G", luaopen_base), ("string", luaopen_string), ("table", luaopen_table), ("math", luaopen_math),
      ("utf8", luaopen_utf8),
    ]
    for (name, open) in libraries {
      luaL_requiref(L, name, open, 1)
      dwell_lua_pop(L, 1)
    }
    dwell_lua_bound_libraries(L)
    for (name, function) in definitions + [("print", Self.print)] {
      dwell_lua_pushhost(L, function, 0)
      lua_setglobal(L, "__dwell_" + name)
    }
    try runPrelude()
  }

  deinit {
    lua_close(L)
    c.deinitialize(count: 1)
    c.deallocate()
  }

  /// The state that owns `L` (from a host function).
  static func owner(_ L: OpaquePointer?) -> LuaState? {
    guard let L, let raw = dwell_lua_extraspace(L).pointee else { return nil }
    return Unmanaged<LuaState>.fromOpaque(raw).takeUnretainedValue()
  }

  /// Bytes in use now.
  var memoryInUse: Int { c.pointee.used }

  /// The most bytes ever in use.
  var memoryPeak: Int { c.pointee.peak }

  private func runPrelude() throws(ScriptError) {
    let text = try Prelude.text.get()
    let status = text.withCString { dwell_lua_loadtext(L, $0, strlen($0), "=dwell") }
    guard status == dwell_lua_ok() else { throw ScriptError(describe(-1)) }
    lua_createtable(L, 0, 2)
    setField("id_length", integer: 128)
    setField("message_length", integer: limits.messageLength)
    lua_createtable(L, 0, 0)
    lua_pushvalue(L, -1)
    hostRef = reference()
    try protectedCall(arguments: 2, results: 4)
    newEnvironmentRef = reference()
    setStateRef = reference()
    getStateRef = reference()
    dispatchRef = reference()
  }

  // MARK: Running scripts

  /// Starts the tick of `instant` (one second of the clock): the pack's budget per tick
  /// is spent afresh from there.
  @discardableResult
  func enterTick(_ instant: MonotonicInstant) -> Bool {
    let tick = instant.nanoseconds / 1_000_000_000
    guard tick != window else { return false }
    window = tick
    tickWork = 0
    tickNanos = 0
    return true
  }

  /// Whether the pack spent its budget for the current tick.
  var tickSpent: Bool {
    tickWork >= Int64(limits.instructionsPerTick)
      || tickNanos >= ScriptLimits.milliseconds(limits.timePerTick) * 1_000_000
  }

  /// ``protectedCall(arguments:results:)`` with `usage` readable through `u.screen(name)`
  /// for the length of the call, and not a moment longer.
  func protectedCall(arguments: Int32, results: Int32, usage: UsageView) throws(ScriptError) {
    try withUnsafePointer(to: usage) { pointer throws(ScriptError) in
      current = pointer
      defer { current = nil }
      try protectedCall(arguments: arguments, results: results)
    }
  }

  /// Calls the function below `arguments` values on the stack as script code, under the
  /// budget, the time backstop and the memory cap. Results are left on the stack only
  /// when it succeeds; a call stopped by a limit fails even if the script caught the error.
  func protectedCall(arguments: Int32, results: Int32) throws(ScriptError) {
    let perCall = Int64(limits.instructionsPerCall)
    let perTick = Int64(limits.instructionsPerTick)
    let share = perTick / Int64(max(callables, 1))
    let leftInTick = max(perTick - tickWork, 0)
    let allowance = min(perCall, share, leftInTick)
    let unit =
      allowance == leftInTick && leftInTick < min(perCall, share)
      ? "tick for the pack"
      : share < perCall ? "call: the pack's \(perTick) per tick shared by \(callables) checks and plugins" : "call"
    setUnit(unit)
    let perCallTime = ScriptLimits.milliseconds(limits.timePerCall)
    let leftTime = max(ScriptLimits.milliseconds(limits.timePerTick) - tickNanos / 1_000_000, 1)
    dwell_lua_arm(L, c, allowance, unit == "tick for the pack" ? 1 : 0, min(perCallTime, leftTime))
    let start = dwell_lua_monotonic_ns()
    c.pointee.enforce = 1
    let status = dwell_lua_pcall(L, arguments, results, 0)
    c.pointee.enforce = 0
    lastWork = allowance - max(c.pointee.budget, 0)
    tickWork += lastWork
    tickNanos += dwell_lua_monotonic_ns() - start
    let exhausted = c.pointee.exhausted
    if exhausted != 0, status == dwell_lua_ok() { dwell_lua_pop(L, results) }
    guard status != dwell_lua_ok() || exhausted != 0 else { return }
    var error = ScriptError(status == dwell_lua_ok() ? "" : describe(-1))
    if status != dwell_lua_ok() { dwell_lua_pop(L, 1) }
    if status == dwell_lua_errmem() || (c.pointee.refused != 0 && exhausted == 0) {
      error.message = "\(whereRefused) memory limit exceeded (\(c.pointee.limit / 1024) KiB)"
    } else if exhausted != 0, !error.message.contains("exceeded (") {
      error.message = "instruction budget exceeded (\(allowance) instructions per \(unit))"
    }
    error.message = clip(error.message.trimmingPrefix(" "), limits.messageLength)
    error.packBudget = exhausted != 0 && c.pointee.per_tick != 0
    throw error
  }

  /// Checks and plugins in the pack: each call gets at most its share of the tick's budget.
  var callables = 1

  private var currentUnit = ""
  private func setUnit(_ unit: String) {
    guard unit != currentUnit else { return }
    currentUnit = unit
    withUnsafeMutableBytes(of: &c.pointee.unit) { raw in
      let bytes = Array(unit.utf8.prefix(raw.count - 1)) + [0]
      raw.copyBytes(from: bytes)
    }
  }

  /// `file:line:` where memory was refused during the last call, or "".
  private var whereRefused: String {
    withUnsafeBytes(of: &c.pointee.where) { raw in String(cString: raw.bindMemory(to: CChar.self).baseAddress!) }
  }

  /// Loads a chunk of Lua text into an environment of its own and runs it. The file name
  /// of `name` appears in error messages (`name.lua:line:`); Lua would cut a long path short.
  func run(_ text: String, name: String) throws(ScriptError) {
    let chunk = "@" + (name.split(separator: "/").last.map(String.init) ?? name)
    c.pointee.refused = 0
    c.pointee.enforce = 1
    let status = text.withCString { pointer in
      dwell_lua_loadtext(L, pointer, strlen(pointer), chunk)
    }
    c.pointee.enforce = 0
    guard status == dwell_lua_ok() else {
      let message =
        status == dwell_lua_errmem()
        ? "\(chunk.dropFirst()): memory limit exceeded (\(c.pointee.limit / 1024) KiB)" : describe(-1)
      dwell_lua_pop(L, 1)
      throw ScriptError(clip(message, limits.messageLength))
    }
    pushReference(newEnvironmentRef)
    do {
      try protectedCall(arguments: 0, results: 1)
    } catch {
      dwell_lua_pop(L, 1)
      throw error
    }
    _ = lua_setupvalue(L, -2, 1)  // the chunk's _ENV
    try protectedCall(arguments: 0, results: 0)
  }

  /// `file:line:` of the script code nearest the running host function, skipping the
  /// prelude's frames and C functions ("" when there is none).
  func whereCalled(level: Int32 = 1) -> String {
    var info = lua_Debug()
    var level = level
    while lua_getstack(L, level, &info) != 0 {
      level += 1
      guard lua_getinfo(L, "Sl", &info) != 0, info.currentline > 0 else { continue }
      let source = withUnsafeBytes(of: &info.short_src) { raw in
        String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
      }
      if source == "dwell" { continue }
      return "\(source):\(info.currentline):"
    }
    return ""
  }

  /// Defines a host function the prelude reaches as `__dwell_<name>` when scripts call it
  /// (`unlock`, `achievement`, `levels`); scripts never see the host's globals.
  func setGlobal(_ name: String, _ function: dwell_lua_host_function) {
    dwell_lua_pushhost(L, function, 0)
    lua_setglobal(L, "__dwell_" + name)
  }

  /// Pushes an error message and returns the value a host function returns to raise it.
  func raise(_ message: String) -> Int32 {
    lua_pushstring(L, clip(message, limits.messageLength))
    return DWELL_LUA_RAISE
  }

  /// Sets `host[name]` to the value on top of the stack (popped), raw, in a protected call.
  func setHostField(_ name: String) -> Bool {
    pushReference(hostRef)
    lua_pushstring(L, name)
    lua_rotate(L, -3, -1)
    return dwell_lua_protected_rawset(L) == dwell_lua_ok()
  }

  /// `print`: the values, described without metamethods, one line, bounded.
  private static let print: dwell_lua_host_function = { L in
    guard let state = LuaState.owner(L) else { return 0 }
    var parts: [String] = []
    for i in 0..<min(lua_gettop(L), 64) { parts.append(state.describe(Int32(i + 1))) }
    var line = parts.joined(separator: "\t")
    if line.count > state.limits.printLineLength {
      line = clip(line, state.limits.printLineLength)
      state.printTruncated = true
    }
    state.printed.append(line)
    if state.printed.count > state.limits.printLines {
      state.printed.removeFirst(state.printed.count - state.limits.printLines)
      state.printTruncated = true
    }
    return 0
  }

  // MARK: The registry

  /// Stores the value on top of the stack in the registry; returns its reference.
  func reference() -> Int32 { luaL_ref(L, dwell_lua_registryindex()) }

  func pushReference(_ ref: Int32) { _ = lua_rawgeti(L, dwell_lua_registryindex(), lua_Integer(ref)) }

  func setField(_ name: String, number: Double) {
    lua_pushnumber(L, number)
    lua_setfield(L, -2, name)
  }

  func setField(_ name: String, integer: Int) {
    lua_pushinteger(L, lua_Integer(integer))
    lua_setfield(L, -2, name)
  }

  func setField(_ name: String, string: String) {
    lua_pushstring(L, string)
    lua_setfield(L, -2, name)
  }
}

/// `text` cut to `length` characters, marked with "..." when cut.
func clip<S: StringProtocol>(_ text: S, _ length: Int) -> String {
  text.count <= length ? String(text) : String(text.prefix(max(length - 3, 0))) + "..."
}
