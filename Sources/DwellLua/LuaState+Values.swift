// Values crossing between Lua and the host: bounded in depth and size, stack checked, raw.
internal import CLua
internal import Dwell

extension LuaState {
  /// What one conversion has seen: values counted, and the tables open on the way down.
  private struct Walk {
    var nodes = 0
    var open = Set<UnsafeRawPointer>()
    /// Whether tables with metatables are refused rather than read raw (what is saved).
    var plain = false
  }

  /// Pushes a JSON value as a Lua value. Fails (pushing nothing) when it is deeper or
  /// larger than the limits a script's values are held to, or the stack cannot grow.
  @discardableResult
  func push(_ value: JSONValue) -> Bool {
    var nodes = 0
    let top = lua_gettop(L)
    guard push(value, depth: 0, nodes: &nodes) else {
      lua_settop(L, top)
      return false
    }
    return true
  }

  private func push(_ value: JSONValue, depth: Int, nodes: inout Int) -> Bool {
    nodes += 1
    guard nodes <= limits.valueNodes, lua_checkstack(L, 3) != 0 else { return false }
    switch value {
    case .null: lua_pushnil(L)
    case .bool(let b): lua_pushboolean(L, b ? 1 : 0)
    case .number(let n, let literal):
      if let integer = Int64(literal) { lua_pushinteger(L, lua_Integer(integer)) } else { lua_pushnumber(L, n) }
    case .string(let s): lua_pushstring(L, s)
    case .array(let items):
      guard depth < limits.valueDepth else { return false }
      lua_createtable(L, Int32(clamping: items.count), 0)
      for (i, item) in items.enumerated() {
        guard push(item, depth: depth + 1, nodes: &nodes) else { return false }
        lua_rawseti(L, -2, lua_Integer(i + 1))
      }
    case .object(let members):
      guard depth < limits.valueDepth else { return false }
      lua_createtable(L, 0, Int32(clamping: members.count))
      for member in members {
        lua_pushstring(L, member.key)
        guard push(member.value, depth: depth + 1, nodes: &nodes) else { return false }
        lua_rawset(L, -3)
      }
    }
    return true
  }

  /// A readable form of the value at `index`, without calling metamethods.
  /// A string is read up to `atMost` bytes ("..." marks a cut), and the bytes read are charged
  /// to the running host function's call.
  func describe(_ index: Int32, atMost: Int = .max) -> String {
    switch lua_type(L, index) {
    case LUA_TSTRING:
      var length = 0
      guard let bytes = lua_tolstring(L, index, &length) else { return "" }
      let count = min(length, max(atMost, 0))
      dwell_lua_host_work(L, Int64(count))
      let text = String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
      return count < length ? text + "..." : text
    case LUA_TNUMBER:
      // lua_tostring converts a number in place, which would confuse lua_next: use a copy.
      guard lua_checkstack(L, 1) != 0 else { return "(a number)" }
      lua_pushvalue(L, index)
      defer { dwell_lua_pop(L, 1) }
      return dwell_lua_tostring(L, -1).map { String(cString: $0) } ?? ""
    case LUA_TNIL: return "nil"
    case LUA_TBOOLEAN: return lua_toboolean(L, index) != 0 ? "true" : "false"
    default:
      return "(a \(String(cString: lua_typename(L, lua_type(L, index)))) value)"
    }
  }

  /// Converts the Lua value at `index` to JSON form (tables become arrays or objects),
  /// reading tables raw. Refuses a table that contains itself, nesting deeper than
  /// ``ScriptLimits/valueDepth`` and more than ``ScriptLimits/valueNodes`` values.
  /// With `plain`, a table with a metatable is refused (a saved state would lose what it adds).
  func json(at index: Int32, plain: Bool = false) throws(ScriptError) -> JSONValue {
    var walk = Walk(plain: plain)
    return try json(at: lua_absindex(L, index), depth: 0, &walk)
  }

  private func json(at index: Int32, depth: Int, _ walk: inout Walk) throws(ScriptError) -> JSONValue {
    walk.nodes += 1
    guard walk.nodes <= limits.valueNodes else {
      throw ScriptError("a value has more than \(limits.valueNodes) parts (sandbox limit)")
    }
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
    case LUA_TTABLE: return try table(at: index, depth: depth, &walk)
    default:
      throw ScriptError("a \(String(cString: lua_typename(L, lua_type(L, index)))) cannot be used here")
    }
  }

  private func table(at index: Int32, depth: Int, _ walk: inout Walk) throws(ScriptError) -> JSONValue {
    guard depth < limits.valueDepth else {
      throw ScriptError("a table is nested more than \(limits.valueDepth) deep (sandbox limit)")
    }
    guard lua_checkstack(L, 4) != 0 else { throw ScriptError("a table is nested too deeply") }
    guard let pointer = lua_topointer(L, index), walk.open.insert(pointer).inserted else {
      throw ScriptError("a table contains itself")
    }
    defer { walk.open.remove(pointer) }
    if walk.plain, lua_getmetatable(L, index) != 0 {
      dwell_lua_pop(L, 1)
      throw ScriptError("a table with a metatable cannot be saved (its fields are read raw); use plain tables")
    }
    var members: [(key: String, value: JSONValue)] = []
    var items: [(Int, JSONValue)] = []
    lua_pushnil(L)
    while lua_next(L, index) != 0 {
      let value: JSONValue
      do {
        value = try json(at: lua_absindex(L, -1), depth: depth + 1, &walk)
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
  }

  /// Reads string keys of the table at `index` (raw access, no metamethods).
  func keys(ofTable index: Int32) -> [String] {
    let index = lua_absindex(L, index)
    var keys: [String] = []
    guard lua_checkstack(L, 3) != 0 else { return keys }
    lua_pushnil(L)
    while lua_next(L, index) != 0 {
      keys.append(lua_type(L, -2) == LUA_TSTRING ? describe(-2) : "[\(describe(-2))]")
      dwell_lua_pop(L, 1)
    }
    return keys
  }
}
