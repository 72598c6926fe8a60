// Values crossing between Lua and the host: bounded in depth and size, stack checked, raw.
internal import CLuaSandbox
internal import Dwell

extension LuaState {
  /// What one conversion has seen: values counted, and the tables open on the way down.
  private struct Walk {
    var nodes = 0
    var open = Set<UnsafeRawPointer>()
    /// Whether tables with metatables are refused rather than read raw (what is saved).
    var plain = false
  }

  /// Why a conversion stopped, and where in the value: the keys from the top, outermost
  /// first (collected as the error comes back up, so a conversion that succeeds builds none).
  private struct Refusal: Error {
    var message: String
    var path: [String] = []
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
    case .string(let s): pushText(s)
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
        pushText(member.key)
        guard push(member.value, depth: depth + 1, nodes: &nodes) else { return false }
        lua_rawset(L, -3)
      }
    }
    return true
  }

  /// Pushes `text` whole, as its UTF-8 bytes: a NUL inside it is part of the string (a C
  /// string would end there, so "a\0b" would come back as "a", and "\0" as "").
  func pushText(_ text: String) {
    var text = text
    text.withUTF8 { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
  }

  /// The string at `index` as text, byte for byte, or `nil` when its bytes are not UTF-8
  /// (a Swift string cannot hold them: they would come back as U+FFFD). The bytes read are
  /// charged to the running host function's call.
  func text(at index: Int32) -> String? {
    var length = 0
    guard let bytes = lua_tolstring(L, index, &length) else { return nil }
    dwell_lua_host_work(L, Int64(length))
    return String(validating: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
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
  /// ``ScriptLimits/valueDepth``, more than ``ScriptLimits/valueNodes`` values, and a string
  /// (value or key) that is not UTF-8 text; a string with a NUL is kept whole. With `plain`,
  /// a table with a metatable is refused (a saved state would lose what it adds). The error
  /// says where in the value it is, from `root` (`state.list[2]`), when that is not the top.
  func json(at index: Int32, plain: Bool = false, root: String = "value") throws(ScriptError) -> JSONValue {
    var walk = Walk(plain: plain)
    do {
      return try json(at: lua_absindex(L, index), depth: 0, &walk)
    } catch {
      guard !error.path.isEmpty else { throw ScriptError(error.message) }
      throw ScriptError("\(root)\(error.path.joined()): \(error.message)")
    }
  }

  private func json(at index: Int32, depth: Int, _ walk: inout Walk) throws(Refusal) -> JSONValue {
    walk.nodes += 1
    guard walk.nodes <= limits.valueNodes else {
      throw Refusal(message: "a value has more than \(limits.valueNodes) parts (sandbox limit)")
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
      guard value.isFinite else { throw Refusal(message: "a number is not finite") }
      return .number(value, literal: "\(value)")
    case LUA_TSTRING:
      guard let text = text(at: index) else { throw Refusal(message: notText("a string", at: index)) }
      return .string(text)
    case LUA_TTABLE: return try table(at: index, depth: depth, &walk)
    default:
      throw Refusal(message: "a \(String(cString: lua_typename(L, lua_type(L, index)))) cannot be used here")
    }
  }

  /// Says that the string at `index` is not UTF-8 text, and which byte is the first not to be.
  private func notText(_ what: String, at index: Int32) -> String {
    var length = 0
    guard let start = lua_tolstring(L, index, &length) else { return "\(what) is not UTF-8 text" }
    let bytes = UnsafeRawBufferPointer(start: start, count: length)
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var valid = 0
    while case .scalarValue(let scalar) = decoder.decode(&iterator) { valid += UTF8.width(scalar) }
    guard valid < length else { return "\(what) is not UTF-8 text" }
    return "\(what) is not UTF-8 text (byte \(valid + 1) is 0x\(String(bytes[valid], radix: 16, uppercase: true)))"
  }

  private func table(at index: Int32, depth: Int, _ walk: inout Walk) throws(Refusal) -> JSONValue {
    guard depth < limits.valueDepth else {
      throw Refusal(message: "a table is nested more than \(limits.valueDepth) deep (sandbox limit)")
    }
    guard lua_checkstack(L, 4) != 0 else { throw Refusal(message: "a table is nested too deeply") }
    guard let pointer = lua_topointer(L, index), walk.open.insert(pointer).inserted else {
      throw Refusal(message: "a table contains itself")
    }
    defer { walk.open.remove(pointer) }
    if walk.plain, lua_getmetatable(L, index) != 0 {
      dwell_lua_pop(L, 1)
      throw Refusal(message: "a table with a metatable cannot be saved (its fields are read raw); use plain tables")
    }
    var members: [(key: String, value: JSONValue)] = []
    var items: [(Int, JSONValue)] = []
    lua_pushnil(L)
    while lua_next(L, index) != 0 {
      let value: JSONValue
      do {
        value = try json(at: lua_absindex(L, -1), depth: depth + 1, &walk)
      } catch {
        var error = error
        error.path.insert(pathStep(-2), at: 0)
        dwell_lua_pop(L, 2)
        throw error
      }
      if lua_type(L, -2) == LUA_TSTRING {
        guard let key = text(at: -2) else {
          let message = notText("a key", at: -2)
          dwell_lua_pop(L, 2)
          throw Refusal(message: message)
        }
        members.append((key, value))
      } else if lua_isinteger(L, -2) != 0 {
        items.append((Int(lua_tointegerx(L, -2, nil)), value))
      } else {
        dwell_lua_pop(L, 2)
        throw Refusal(message: "a table key must be a string or an integer")
      }
      dwell_lua_pop(L, 1)
    }
    if members.isEmpty && !items.isEmpty {
      items.sort { $0.0 < $1.0 }
      guard items.enumerated().allSatisfy({ $0.offset + 1 == $0.element.0 }) else {
        throw Refusal(message: "a list must be numbered 1, 2, 3, ...")
      }
      return .array(items.map(\.1))
    }
    guard items.isEmpty else { throw Refusal(message: "a table mixes a list and named fields") }
    members.sort { $0.key < $1.key }
    return .object(members)
  }

  /// The key at `index` as a step of a path: `.name`, `[2]`, or `["a b"]` (cut short).
  private func pathStep(_ index: Int32) -> String {
    guard lua_type(L, index) == LUA_TSTRING else { return "[\(describe(index, atMost: 40))]" }
    let key = describe(index, atMost: 40)
    let isName =
      key.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
      && key.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    return isName ? "." + key : "[\"" + clip(key, 43) + "\"]"
  }

  /// Reads string keys of the table at `index` (raw access, no metamethods).
  func keys(ofTable index: Int32) -> [String] {
    let index = lua_absindex(L, index)
    var keys: [String] = []
    guard lua_checkstack(L, 3) != 0 else { return keys }
    lua_pushnil(L)
    while lua_next(L, index) != 0 {
      // A key is shown or compared with the few a table takes: its head is enough.
      keys.append(lua_type(L, -2) == LUA_TSTRING ? describe(-2, atMost: 256) : "[\(describe(-2, atMost: 256))]")
      dwell_lua_pop(L, 1)
    }
    return keys
  }
}
