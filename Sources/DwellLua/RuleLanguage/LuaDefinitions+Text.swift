// Titles and descriptions of rules: shown in logs and terminals, so plain, one line, bounded.

internal import CLuaSandbox
internal import Dwell

extension LuaDefinitions {
  /// Why a title or description cannot be shown: control characters (a newline, ESC...)
  /// would fake lines or move the cursor where it is shown, and it has a length limit.
  static func badText(_ text: String?, _ key: String) -> DefinitionFailure? {
    guard let text else { return nil }
    if let odd = text.unicodeScalars.first(where: isControl) {
      let shown = "U+" + String(odd.value, radix: 16, uppercase: true)
      return DefinitionFailure(
        "its \(key) contains a control character (\(shown)); write it on one line of plain text (sandbox)")
    }
    guard text.count <= textLength else {
      return DefinitionFailure("its \(key) is longer than \(textLength) characters (\(text.count)) (sandbox)")
    }
    return nil
  }

  /// Characters a title or description may have.
  static let textLength = 500

  /// The text field `key` of the table at `index` (nil when absent), read at most as far as
  /// a text can go: anything but a string ({}, 42, true) is the designer's mistake, said so.
  static func text(_ state: LuaState, table index: Int32, key: String) throws(DefinitionFailure) -> String? {
    lua_getfield(state.L, index, key)
    defer { dwell_lua_pop(state.L, 1) }
    switch lua_type(state.L, -1) {
    case LUA_TNIL: return nil
    case LUA_TSTRING:
      let name = key == "summary" ? "description" : key
      // A character is at most 4 bytes: a longer text is not read at all.
      let bytes = Int(lua_rawlen(state.L, -1))
      guard bytes <= 4 * textLength else {
        throw DefinitionFailure("its \(name) is longer than \(textLength) characters (\(bytes) bytes) (sandbox)")
      }
      let text = state.describe(-1)
      if let failure = badText(text, name) { throw failure }
      return text
    case let type:
      let got = String(cString: lua_typename(state.L, type))
      throw DefinitionFailure("'\(key)' must be a string, as in \(key) = \"Bonus level\", not a \(got)")
    }
  }

  /// The flag `key` of the table at `index`: false when absent, else true or false as written
  /// (to Lua, 0 and "false" would be true).
  static func flag(_ state: LuaState, table index: Int32, key: String) throws(DefinitionFailure) -> Bool {
    lua_getfield(state.L, index, key)
    defer { dwell_lua_pop(state.L, 1) }
    switch lua_type(state.L, -1) {
    case LUA_TNIL: return false
    case LUA_TBOOLEAN: return lua_toboolean(state.L, -1) != 0
    case LUA_TSTRING:
      throw DefinitionFailure(
        "'\(key)' must be true or false, as in \(key) = true, not a string (\"\(clip(state.describe(-1, atMost: 84), 20))\")"
      )
    case LUA_TNUMBER:
      throw DefinitionFailure(
        "'\(key)' must be true or false, as in \(key) = true, not the number \(state.describe(-1))")
    case let type:
      throw DefinitionFailure(
        "'\(key)' must be true or false, as in \(key) = true, not a \(String(cString: lua_typename(state.L, type)))")
    }
  }
}
