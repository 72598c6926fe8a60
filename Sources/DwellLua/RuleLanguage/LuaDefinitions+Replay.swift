// Definitions met again when a pack whose rules are known loads into a fresh state: only their check functions are kept.
internal import CLuaSandbox
internal import Dwell

extension LuaDefinitions {
  /// A definition while scripts whose rules are already known load again
  /// (``LuaRulePack/reinstalled()``): its id is noted and its check functions are kept, in
  /// the order a parse meets them (the definition's own `check`, then each tier's), for the
  /// known rules to be bound to. Nothing else is read or checked: the pack compares the ids
  /// with those its first load defined, and loads in full when they differ.
  static func replay(_ state: LuaState, id: String) -> Int32 {
    let L = state.L
    state.collector.defined.append(id)
    guard dwell_lua_istable(L, 1) != 0 else { return 0 }
    keepCheck(state, table: 1)
    lua_getfield(L, 1, "tiers")
    defer { dwell_lua_pop(L, 1) }
    guard dwell_lua_istable(L, -1) != 0 else { return 0 }
    let count = lua_rawlen(L, -1)
    guard count > 0 else { return 0 }
    for position in 1...count {
      if lua_rawgeti(L, -1, lua_Integer(position)) == LUA_TTABLE { keepCheck(state, table: -1) }
      dwell_lua_pop(L, 1)
    }
    return 0
  }

  /// Keeps the `check` function of the table at `index`, if it has one.
  private static func keepCheck(_ state: LuaState, table index: Int32) {
    let L = state.L
    lua_getfield(L, index, "check")
    guard dwell_lua_isfunction(L, -1) != 0 else { return dwell_lua_pop(L, 1) }
    state.collector.checks.append(state.reference())  // pops the function
  }
}
