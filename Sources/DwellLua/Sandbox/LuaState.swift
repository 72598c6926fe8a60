// One sandboxed Lua 5.4 state: opened from an allow-list, with its registry and host-facing helpers.
internal import CLuaSandbox
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
  let c: UnsafeMutablePointer<dwell_lua_limits>
  /// Lines scripts printed, newest last (bounded), and whether some were cut or dropped.
  @exclusivity(unchecked) var printed: [String] = []
  @exclusivity(unchecked) var printTruncated = false
  /// Lines printed since the runtime last handed them to its print handlers (bounded).
  @exclusivity(unchecked) var freshPrints: [String] = []
  /// The usage being evaluated, for `u.screen(name)`: set only for the length of one call
  /// into Lua (a pointer, because a stored copy would cost retains on every check and
  /// would make the engine copy its screen table on its next change).
  @exclusivity(unchecked) var current: UnsafePointer<UsageFigures>?
  /// Whether the running check read a figure that changes with time alone, or `host`
  /// (see ``UsageTable``): set by the reads, cleared by the runtime before each check.
  @exclusivity(unchecked) var readsTime = false
  /// Definitions collected while loading.
  var collector = Collector()

  struct Collector {
    var rules: [Rule] = []
    /// Every id taken by a definition that held, with the `file:line` that took it (an
    /// achievement with tiers takes its own id and each tier's).
    var ids: [String: String] = [:]
    /// The ids of the rules the pack declares (an achievement with tiers is its tiers):
    /// what a plugin may unlock.
    var unlockable: Set<String> = []
    var file = ""
    var levels: [Level] = []
    /// Plugin names by event.
    var subscriptions: [String: [String]] = [:]
    /// Registry references to each plugin's handler of an event (by event, then plugin),
    /// for the plugins with one handler of it once loaded: called without `dispatch`.
    var soleHandlers: [String: [String: Int32]] = [:]
    /// Whether a handler was added after loading (then every event goes through `dispatch`).
    var handlersAddedLate = false
    /// `file:line:` of each plugin's first `on`, for problems found after a call (its state).
    var places: [String: String] = [:]
    /// Definitions named but not yet given their table (see ``LuaDefinitions``).
    var pending: [String: LuaDefinitions.Pending] = [:]
    /// The ids of the definitions that held, in the order they ran.
    var defined: [String] = []
    /// Loading again scripts whose rules are known (``LuaRulePack/reinstalled()``): a
    /// definition is not parsed, only its check functions are kept, in `checks`.
    var replaying = false
    var checks: [Int32] = []
  }

  /// Actions plugins asked for during the current dispatch, and the pack's output so far.
  @exclusivity(unchecked) var actions: [UsageAction] = []
  @exclusivity(unchecked) var output = PluginActions.Output()
  /// What plugins published, by plugin and key, as JSON text: kept as text, a value costs
  /// the host its bytes (at most 16 KiB a key), where a tree of it could cost sixty times
  /// as much (``LuaRuntime/published`` reads it back).
  var published: [String: [String: String]] = [:]
  /// Functions the host exposes as `host.name(...)`.
  var hostFunctions: [String: @Sendable ([JSONValue]) -> JSONValue] = [:]
  /// The instant of the current dispatch (for notifications).
  @exclusivity(unchecked) var now = MonotonicInstant(nanoseconds: 0)
  /// The prelude's functions, and the table behind the scripts' read-only `host`.
  var dispatchRef: Int32 = 0
  var setStateRef: Int32 = 0
  var newEnvironmentRef: Int32 = 0
  /// The prelude's plugins by name (`{ name = ..., state = ... }`), read raw.
  var pluginsRef: Int32 = 0
  private(set) var hostRef: Int32 = 0

  /// Work the last call did.
  var lastWork: Int64 { c.pointee.last_work }
  /// Whether the pack's files are running (loading has a budget of its own).
  var loading: Bool {
    get { c.pointee.loading != 0 }
    set { c.pointee.loading = newValue ? 1 : 0 }
  }
  /// Checks and plugins in the pack: each call gets at most its share of the tick's budget.
  var callables: Int {
    get { Int(c.pointee.callables) }
    set { c.pointee.callables = Int64(max(newValue, 1)) }
  }

  /// Creates a state and runs the prelude; `definitions` become the prelude's
  /// `__dwell_<name>` functions.
  init(limits: ScriptLimits, definitions: [(String, dwell_lua_host_function)]) throws(ScriptError) {
    self.limits = limits
    c = .allocate(capacity: 1)
    c.initialize(to: dwell_lua_limits())
    c.pointee.limit = max(limits.memory, 64 << 10)
    // The accounting every call does runs in C (`dwell_lua_call`), from limits converted once.
    c.pointee.per_call = Int64(limits.instructionsPerCall)
    c.pointee.per_tick_work = Int64(limits.instructionsPerTick)
    c.pointee.callables = 1
    c.pointee.call_ms = ScriptLimits.milliseconds(limits.timePerCall)
    c.pointee.tick_ms = ScriptLimits.milliseconds(limits.timePerTick)
    c.pointee.load_work_limit = Int64(limits.instructionsToLoad)
    c.pointee.load_ms = ScriptLimits.milliseconds(limits.timeToLoad)
    c.pointee.read_ms = ScriptLimits.milliseconds(limits.timeToRead)
    c.pointee.window = .min
    c.pointee.sustained_ppm = limits.sustainedPPM
    // At most a day: the share of it stays far within 64 bits (sustained.c).
    c.pointee.sustained_window_ns = min(max(ScriptLimits.nanoseconds(limits.sustainedWindow), 1), 86_400_000_000_000)
    c.pointee.total_limit_ns = limits.totalHostTime.map { max(ScriptLimits.nanoseconds($0), 1) } ?? 0
    c.pointee.last_instant = .min
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
    for (name, function) in definitions + [
      ("print", Self.print), ("defining", LuaDefinitions.defining), ("touch", UsageTable.touch),
    ] {
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

  /// The most bytes of an id (of a rule, a tier, a plugin), as `prelude.lua` checks them.
  static let idLength = 128

  /// The most bytes of a string arithmetic converts to a number (`prelude.lua`).
  static let numeralLength = 200

  /// Bytes in use now.
  var memoryInUse: Int { c.pointee.used }

  /// The most bytes ever in use.
  var memoryPeak: Int { c.pointee.peak }

  private func runPrelude() throws(ScriptError) {
    let text = try Prelude.text.get()
    guard load(text, chunk: "=dwell").status == dwell_lua_ok() else { throw ScriptError(describe(-1)) }
    lua_createtable(L, 0, 2)
    setField("id_length", integer: Self.idLength)
    setField("message_length", integer: limits.messageLength)
    setField("numeral_length", integer: Self.numeralLength)
    lua_createtable(L, 0, 0)
    lua_pushvalue(L, -1)
    hostRef = reference()
    dwell_lua_push_allow_list(L)
    // The host's own setup, under limits of its own (a pack's, a millisecond for a call or
    // its load say, are no measure of it), and not counted against the pack's load.
    let (packWork, packTime) = (c.pointee.load_work_limit, c.pointee.load_ms)
    c.pointee.load_work_limit = 10_000_000
    c.pointee.load_ms = 10_000
    loading = true
    defer {
      loading = false
      c.pointee.load_work = 0
      c.pointee.load_ns = 0
      c.pointee.load_work_limit = packWork
      c.pointee.load_ms = packTime
    }
    try protectedCall(arguments: 3, results: 4)
    pluginsRef = reference()
    newEnvironmentRef = reference()
    setStateRef = reference()
    dispatchRef = reference()
  }

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
    let limits = state.limits
    var parts: [String] = []
    var length = 0
    for i in 0..<min(lua_gettop(L), 64) where length <= limits.printLineLength {
      // Cut before any per-byte work: a character is at most 4 bytes.
      let part = escapingControls(state.describe(Int32(i + 1), atMost: 4 * limits.printLineLength + 4))
      length += part.count + 1
      parts.append(part)
    }
    let place = state.whereCalled()
    var line = (place.isEmpty ? "" : place + " ") + parts.joined(separator: "\t")
    if line.count > limits.printLineLength || parts.count < min(lua_gettop(L), 64) {
      line = clip(line, limits.printLineLength)
      state.printTruncated = true
    }
    state.printed.append(line)
    if state.printed.count > limits.printLines {
      state.printed.removeFirst(state.printed.count - limits.printLines)
      state.printTruncated = true
    }
    if state.freshPrints.count < limits.printLines {
      state.freshPrints.append(line)
    } else {
      state.printTruncated = true
    }
    return 0
  }

  /// The lines printed since the last time, handed over once.
  func takePrints() -> [String] {
    guard !freshPrints.isEmpty else { return [] }
    defer { freshPrints.removeAll() }
    return freshPrints
  }

  // MARK: The registry

  /// Stores the value on top of the stack in the registry; returns its reference.
  func reference() -> Int32 { luaL_ref(L, dwell_lua_registryindex()) }

  func pushReference(_ ref: Int32) { _ = lua_rawgeti(L, dwell_lua_registryindex(), lua_Integer(ref)) }

  // Field names are literals: their bytes are passed as they are, no C string is made, and
  // Lua's string cache finds the same address again (a usage table is set every tick).

  func setField(_ name: StaticString, number: Double) {
    lua_pushnumber(L, number)
    name.withCName { lua_setfield(L, -2, $0) }
  }

  func setField(_ name: StaticString, integer: Int) {
    lua_pushinteger(L, lua_Integer(integer))
    name.withCName { lua_setfield(L, -2, $0) }
  }

  func setField(_ name: StaticString, string: String) {
    lua_pushstring(L, string)
    name.withCName { lua_setfield(L, -2, $0) }
  }
}

extension StaticString {
  /// The literal's bytes as a C string (a literal is NUL-terminated).
  @inline(__always)
  fileprivate func withCName<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
    body(UnsafeRawPointer(utf8Start).assumingMemoryBound(to: CChar.self))
  }
}

/// `text` cut to `length` characters, marked with "..." when cut, with its control
/// characters escaped (see ``escapingControls(_:)``): what a script says reaches logs and
/// terminals as one line that cannot move the cursor or fake another line.
func clip<S: StringProtocol>(_ text: S, _ length: Int) -> String {
  // Escaping only lengthens: the first `length + 1` characters decide, however long `text` is.
  let text = escapingControls(text.prefix(max(length, 0) + 1))
  return text.count <= length ? text : String(text.prefix(max(length - 3, 0))) + "..."
}
