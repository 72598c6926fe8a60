// A plugin's `p.progress(id, fraction, text)`: how far a rule it unlocks is, checked and bounded.
internal import CLuaSandbox
internal import Dwell

extension PluginActions {
  /// Reads `p.progress(id, fraction, text)` (arguments 3 to 5): a rule the pack declares, a
  /// number (clamped to 0...1; NaN is a mistake, said), an optional text clipped to the
  /// message length. Queues a `.progress` action; raises at the designer's line otherwise.
  static func progress(_ state: LuaState, plugin: String, place: String, admit: () -> Bool) -> Int32 {
    let L = state.L
    let example = "p.progress(\"ten-sits\", 0.4, \"4 of 10 sits\")"
    guard lua_type(L, 3) == LUA_TSTRING else {
      return state.raise("\(place) progress needs a rule id, as in \(example)")
    }
    let id = state.describe(3, atMost: LuaState.idLength + 1)
    guard state.collector.unlockable.contains(id) else {
      // The search and the hint's comparisons, charged to the script (as for p.unlock).
      let ids = state.collector.unlockable.count
      dwell_lua_host_work(L, Int64(ids) * 16 + Int64(min(ids, Spelling.comparedAtMost)) * 64)
      return state.raise(
        "\(place) progress '\(clip(id, 64))': not a rule of this pack\(Spelling.hint(for: id, in: state.collector.unlockable)); "
          + "a plugin reports progress only for a rule its own pack declares")
    }
    guard lua_type(L, 4) == LUA_TNUMBER else {
      let got = String(cString: lua_typename(L, lua_type(L, 4)))
      return state.raise("\(place) progress takes a fraction from 0 to 1, as in \(example), not a \(got)")
    }
    let fraction = lua_tonumberx(L, 4, nil)
    guard !fraction.isNaN else { return state.raise("\(place) progress takes a fraction from 0 to 1, not 0/0") }
    guard lua_type(L, 5) <= LUA_TNIL || lua_type(L, 5) == LUA_TSTRING else {
      let got = String(cString: lua_typename(L, lua_type(L, 5)))
      return state.raise("\(place) progress's text must be a string, as in \(example), not a \(got)")
    }
    let limit = state.limits.messageLength
    let text = lua_type(L, 5) == LUA_TSTRING ? clip(state.describe(5, atMost: 4 * limit + 4), limit) : ""
    guard admit() else { return 0 }
    state.actions.append(.progress(rule: id, fraction: min(1, max(0, fraction)), summary: text))
    return 0
  }
}
