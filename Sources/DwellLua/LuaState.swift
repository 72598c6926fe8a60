internal import CLua
internal import Dwell

/// An error raised by a script, or a script that could not be loaded.
public struct ScriptError: Error, CustomStringConvertible, Sendable, Equatable {
  /// Lua's message, usually starting with `file:line:`.
  public var message: String
  /// The rule it concerns, if any.
  public var rule: String?

  /// Creates an error.
  public init(_ message: String, rule: String? = nil) {
    self.message = message
    self.rule = rule
  }

  public var description: String {
    guard let rule, !message.contains("'\(rule)'") else { return message }
    return "\(message) (rule '\(rule)')"
  }
}

/// Resource limits for one Lua state.
public struct ScriptLimits: Sendable {
  /// Bytes the state may hold while script code runs. Default 8 MiB.
  public var memory: Int
  /// Virtual-machine instructions one call into a script may run. Default 1,000,000.
  public var instructionsPerCall: Int

  /// Creates limits; the defaults suit rule packs.
  public init(memory: Int = 8 << 20, instructionsPerCall: Int = 1_000_000) {
    self.memory = memory
    self.instructionsPerCall = instructionsPerCall
  }
}

/// One sandboxed Lua 5.4 state. Not thread-safe: ``LuaRuntime`` serialises access.
///
/// Scripts see `string`, `table`, `math`, `utf8` and the safe base functions; no `io`,
/// `os`, `debug`, `package`, `require`, `load`, `loadfile`, `dofile`, `string.dump`,
/// `collectgarbage` or `rawset`. Every call runs under an instruction budget and every
/// allocation under a memory cap, enforced in C so errors never unwind Swift frames.
final class LuaState {
  let L: OpaquePointer
  private let limits: UnsafeMutablePointer<dwell_lua_limits>
  /// Lines scripts printed, newest last (bounded).
  var printed: [String] = []
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

  /// Actions plugins asked for during the current dispatch.
  var actions: [UsageAction] = []
  /// What plugins published, by plugin and key.
  var published: [String: [String: JSONValue]] = [:]
  /// Functions the host exposes as `host.name(...)`.
  var hostFunctions: [String: @Sendable ([JSONValue]) -> JSONValue] = [:]
  /// The instant of the current dispatch (for notifications).
  var now = MonotonicInstant(nanoseconds: 0)
  /// The prelude's `dispatch`, `get_state` and `set_state` functions.
  var dispatchRef: Int32 = 0
  var getStateRef: Int32 = 0
  var setStateRef: Int32 = 0

  init(limits scriptLimits: ScriptLimits) throws(ScriptError) {
    limits = .allocate(capacity: 1)
    limits.initialize(
      to: dwell_lua_limits(
        used: 0, peak: 0, limit: max(scriptLimits.memory, 64 << 10), enforce: 0,
        budget: Int64(scriptLimits.instructionsPerCall), per_call: Int64(scriptLimits.instructionsPerCall),
        exhausted: 0))
    guard let state = dwell_lua_newstate(limits) else {
      limits.deallocate()
      throw ScriptError("cannot create a Lua state")
    }
    L = state
    dwell_lua_extraspace(L).pointee = Unmanaged.passUnretained(self).toOpaque()
    openSandbox()
  }

  deinit {
    lua_close(L)
    limits.deinitialize(count: 1)
    limits.deallocate()
  }

  /// The state that owns `L` (from a host function).
  static func owner(_ L: OpaquePointer?) -> LuaState? {
    guard let L, let raw = dwell_lua_extraspace(L).pointee else { return nil }
    return Unmanaged<LuaState>.fromOpaque(raw).takeUnretainedValue()
  }

  /// Bytes in use now.
  var memoryInUse: Int { limits.pointee.used }

  private func openSandbox() {
    let libraries: [(String, lua_CFunction)] = [
      ("_G", luaopen_base), ("string", luaopen_string), ("table", luaopen_table),
      ("math", luaopen_math), ("utf8", luaopen_utf8),
    ]
    for (name, open) in libraries {
      luaL_requiref(L, name, open, 1)
      dwell_lua_pop(L, 1)
    }
    for name in ["dofile", "loadfile", "load", "require", "collectgarbage", "rawset", "print"] {
      lua_pushnil(L)
      lua_setglobal(L, name)
    }
    lua_getglobal(L, "string")
    lua_pushnil(L)
    lua_setfield(L, -2, "dump")
    dwell_lua_pop(L, 1)
    setGlobal("print") { L in
      guard let state = LuaState.owner(L) else { return 0 }
      let count = lua_gettop(L)
      var parts: [String] = []
      for i in 0..<count { parts.append(state.describe(Int32(i + 1))) }
      state.printed.append(parts.joined(separator: "\t"))
      if state.printed.count > 200 { state.printed.removeFirst(state.printed.count - 200) }
      return 0
    }
  }

  /// Defines a global host function.
  func setGlobal(_ name: String, _ function: dwell_lua_host_function) {
    dwell_lua_pushhost(L, function, 0)
    lua_setglobal(L, name)
  }

  // MARK: Running scripts

  /// Runs `body` (which pushes a function and its arguments) as a protected call of
  /// script code under the budget and memory cap. Returns the number of results pushed.
  /// ``protectedCall(arguments:results:)`` with `usage` readable through `u.screen(name)`
  /// for the length of the call, and not a moment longer.
  func protectedCall(arguments: Int32, results: Int32, usage: UsageView) throws(ScriptError) {
    try withUnsafePointer(to: usage) { pointer throws(ScriptError) in
      current = pointer
      defer { current = nil }
      try protectedCall(arguments: arguments, results: results)
    }
  }

  func protectedCall(arguments: Int32, results: Int32) throws(ScriptError) {
    limits.pointee.budget = limits.pointee.per_call
    limits.pointee.exhausted = 0
    limits.pointee.enforce = 1
    let status = dwell_lua_pcall(L, arguments, results, 0)
    limits.pointee.enforce = 0
    guard status == dwell_lua_ok() else {
      let message: String
      if status == dwell_lua_errmem() {
        message = "memory limit exceeded (\(limits.pointee.limit / 1024) KiB)"
      } else {
        message = describe(-1)
      }
      dwell_lua_pop(L, 1)
      throw ScriptError(message)
    }
  }

  /// Loads and runs a chunk of Lua text. The file name of `name` appears in error
  /// messages (`name.lua:line:`); Lua would cut a long path short.
  func run(_ text: String, name: String) throws(ScriptError) {
    let chunk = "@" + (name.split(separator: "/").last.map(String.init) ?? name)
    let status = text.withCString { pointer in
      dwell_lua_loadtext(L, pointer, strlen(pointer), chunk)
    }
    guard status == dwell_lua_ok() else {
      let message = describe(-1)
      dwell_lua_pop(L, 1)
      throw ScriptError(message)
    }
    try protectedCall(arguments: 0, results: 0)
  }

  /// Runs the prelude, keeping the three functions it returns.
  func runPrelude(_ text: String) throws(ScriptError) {
    let status = text.withCString { dwell_lua_loadtext(L, $0, strlen($0), "=dwell") }
    guard status == dwell_lua_ok() else { throw ScriptError(describe(-1)) }
    try protectedCall(arguments: 0, results: 3)
    setStateRef = reference()
    getStateRef = reference()
    dispatchRef = reference()
  }

  /// Pushes a JSON value as a Lua value.
  func push(_ value: JSONValue, depth: Int = 0) {
    switch value {
    case .null: lua_pushnil(L)
    case .bool(let b): lua_pushboolean(L, b ? 1 : 0)
    case .number(let n, let literal):
      if let integer = Int64(literal) { lua_pushinteger(L, lua_Integer(integer)) } else { lua_pushnumber(L, n) }
    case .string(let s): lua_pushstring(L, s)
    case .array(let items):
      lua_createtable(L, Int32(clamping: items.count), 0)
      for (i, item) in items.enumerated() where depth < 32 {
        push(item, depth: depth + 1)
        lua_rawseti(L, -2, lua_Integer(i + 1))
      }
    case .object(let members):
      lua_createtable(L, 0, Int32(clamping: members.count))
      for member in members where depth < 32 {
        lua_pushstring(L, member.key)
        push(member.value, depth: depth + 1)
        lua_rawset(L, -3)
      }
    }
  }

  /// A readable form of the value at `index`, without calling metamethods.
  func describe(_ index: Int32) -> String {
    switch lua_type(L, index) {
    case LUA_TSTRING:
      return dwell_lua_tostring(L, index).map { String(cString: $0) } ?? ""
    case LUA_TNUMBER:
      // lua_tostring converts a number in place, which would confuse lua_next: use a copy.
      lua_pushvalue(L, index)
      defer { dwell_lua_pop(L, 1) }
      return dwell_lua_tostring(L, -1).map { String(cString: $0) } ?? ""
    case LUA_TNIL: return "nil"
    case LUA_TBOOLEAN: return lua_toboolean(L, index) != 0 ? "true" : "false"
    default:
      return "(a \(String(cString: lua_typename(L, lua_type(L, index)))) value)"
    }
  }

  /// `file:line:` of the script code `level` calls up from the running host function.
  func whereCalled(level: Int32 = 1) -> String {
    var info = lua_Debug()
    guard lua_getstack(L, level, &info) != 0, lua_getinfo(L, "Sl", &info) != 0, info.currentline > 0 else {
      return ""
    }
    let source = withUnsafeBytes(of: &info.short_src) { raw in
      String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
    }
    return "\(source):\(info.currentline):"
  }

  /// Pushes an error message and returns the value a host function returns to raise it.
  func raise(_ message: String) -> Int32 {
    lua_pushstring(L, message)
    return DWELL_LUA_RAISE
  }

  // MARK: Reading values

  /// Converts the Lua value at `index` to JSON form (tables become arrays or objects).
  func json(at index: Int32, depth: Int = 0) throws(ScriptError) -> JSONValue {
    guard depth < 32 else { throw ScriptError("a table is nested too deeply") }
    let index = lua_absindex(L, index)
    switch lua_type(L, index) {
    case LUA_TNIL: return .null
    case LUA_TBOOLEAN: return .bool(lua_toboolean(L, index) != 0)
    case LUA_TNUMBER:
      if lua_isinteger(L, index) != 0 {
        let value = lua_tointegerx(L, index, nil)
        return .number(Double(value), literal: String(value))
      }
      let value = dwell_lua_tonumber(L, index)
      guard value.isFinite else { throw ScriptError("a number is not finite") }
      return .number(value, literal: "\(value)")
    case LUA_TSTRING: return .string(describe(index))
    case LUA_TTABLE:
      var members: [(key: String, value: JSONValue)] = []
      var items: [(Int, JSONValue)] = []
      lua_pushnil(L)
      while lua_next(L, index) != 0 {
        let value: JSONValue
        do {
          value = try json(at: -1, depth: depth + 1)
        } catch {
          dwell_lua_pop(L, 2)
          throw error
        }
        if lua_type(L, -2) == LUA_TSTRING {
          members.append((describe(-2), value))
        } else if lua_isinteger(L, -2) != 0 {
          items.append((Int(lua_tointegerx(L, -2, nil)), value))
        } else {
          dwell_lua_pop(L, 2)
          throw ScriptError("a table key must be a string or an integer")
        }
        dwell_lua_pop(L, 1)
      }
      if members.isEmpty && !items.isEmpty {
        items.sort { $0.0 < $1.0 }
        guard items.enumerated().allSatisfy({ $0.offset + 1 == $0.element.0 }) else {
          throw ScriptError("a list must be numbered 1, 2, 3, ...")
        }
        return .array(items.map(\.1))
      }
      guard items.isEmpty else { throw ScriptError("a table mixes a list and named fields") }
      members.sort { $0.key < $1.key }
      return .object(members)
    default:
      throw ScriptError("a \(String(cString: lua_typename(L, lua_type(L, index)))) cannot be used here")
    }
  }

  /// Reads string keys of the table at `index` (raw access, no metamethods).
  func keys(ofTable index: Int32) -> [String] {
    let index = lua_absindex(L, index)
    var keys: [String] = []
    lua_pushnil(L)
    while lua_next(L, index) != 0 {
      keys.append(lua_type(L, -2) == LUA_TSTRING ? describe(-2) : "[\(describe(-2))]")
      dwell_lua_pop(L, 1)
    }
    return keys
  }

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
