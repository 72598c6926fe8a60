// Whether a Lua value is exactly a JSON value read from it before, found without reading it again.
internal import CLuaSandbox
internal import Dwell

extension LuaState {
  /// Whether the Lua value at `index` is `value` as ``json(at:)`` read it, so that reading
  /// it again would give the same value and the same text, without building anything.
  ///
  /// The walk follows `value` (raw reads of each member it names, then a count of the
  /// table's keys that stops one past the expected number), so `value` bounds the work
  /// whatever the Lua side holds; anything unexpected (a new key, a cycle, a string that
  /// is not valid UTF-8) is a mismatch, and the caller reads the value the full way.
  func matches(_ value: JSONValue, at index: Int32) -> Bool {
    let index = lua_absindex(L, index)
    switch value {
    case .null:
      return lua_type(L, index) == LUA_TNIL
    case .bool(let flag):
      return lua_type(L, index) == LUA_TBOOLEAN && (lua_toboolean(L, index) != 0) == flag
    case .number(let number, let literal):
      return lua_type(L, index) == LUA_TNUMBER && matches(number: number, literal: literal, at: index)
    case .string(let text):
      guard lua_type(L, index) == LUA_TSTRING else { return false }
      var length = 0
      guard let bytes = lua_tolstring(L, index, &length) else { return false }
      return text.utf8.elementsEqual(UnsafeRawBufferPointer(start: bytes, count: length))
    case .array(let items):
      guard lua_type(L, index) == LUA_TTABLE, lua_checkstack(L, 3) != 0 else { return false }
      for (offset, item) in items.enumerated() {
        _ = lua_rawgeti(L, index, lua_Integer(offset + 1))
        defer { dwell_lua_pop(L, 1) }
        guard matches(item, at: -1) else { return false }
      }
      return keyCount(index, atMost: items.count + 1) == items.count
    case .object(let members):
      guard lua_type(L, index) == LUA_TTABLE, lua_checkstack(L, 3) != 0 else { return false }
      for member in members {
        var key = member.key
        key.withUTF8 { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
        _ = lua_rawget(L, index)
        defer { dwell_lua_pop(L, 1) }
        guard matches(member.value, at: -1) else { return false }
      }
      return keyCount(index, atMost: members.count + 1) == members.count
    }
  }

  /// Whether the number at `index` reads as `literal`: an integer as its digits, a float
  /// as Swift prints it (the same bits print the same).
  private func matches(number: Double, literal: String, at index: Int32) -> Bool {
    let integerLiteral = literal.utf8.allSatisfy { $0 == UInt8(ascii: "-") || (48...57).contains($0) }
    guard lua_isinteger(L, index) != 0 else {
      return !integerLiteral && dwell_lua_tonumber(L, index).bitPattern == number.bitPattern
    }
    guard integerLiteral else { return false }
    let integer = lua_tointegerx(L, index, nil)
    // Below 2^53 a double holds every integer exactly; above, compare the text.
    if number.magnitude < 9_007_199_254_740_992 { return Double(integer) == number }
    return String(integer) == literal
  }

  /// The number of keys of the table at `index`, counting no further than `limit`.
  private func keyCount(_ index: Int32, atMost limit: Int) -> Int {
    var count = 0
    lua_pushnil(L)
    while lua_next(L, index) != 0 {
      dwell_lua_pop(L, 1)
      count += 1
      if count >= limit {
        dwell_lua_pop(L, 1)
        break
      }
    }
    return count
  }
}
