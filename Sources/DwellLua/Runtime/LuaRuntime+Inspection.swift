// Looking into a pack's plugins from a designer's tool: a plugin's state as it is now,
// where each plugin is defined, and starting one plugin's state afresh.
internal import CLuaSandbox
internal import Dwell

extension LuaRuntime {
  /// Plugin `plugin`'s state as its table holds it now (read raw, within the sandbox's
  /// bounds on size and depth), `nil` for a plugin the pack does not have.
  ///
  /// - Throws: ``ScriptError`` when the state holds what cannot be saved (a function, a cycle).
  func state(of plugin: String) throws(ScriptError) -> JSONValue? {
    guard let index = plugins.firstIndex(of: plugin) else { return nil }
    return try box.withLock { box throws(ScriptError) -> JSONValue? in
      let state = box.state
      let top = lua_gettop(state.L)
      defer { lua_settop(state.L, top) }
      pushState(index, state)
      return try state.json(at: -1, plain: true, root: "state")
    }
  }

  /// The file each plugin's first handler is in, by plugin (`rules/streaks.lua`).
  var pluginFiles: [String: String] {
    box.withLock { box in
      box.state.collector.places.compactMapValues { place in
        // "file.lua:12:" -> "file.lua"
        let parts = place.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count >= 3 ? parts.dropLast(2).joined(separator: ":") : nil
      }
    }
  }

  /// Gives `plugin` an empty state, as on a first launch, saved at the engine's next save;
  /// what it published stays. Returns `false` for a plugin the pack does not have.
  func resetState(of plugin: String) -> Bool {
    guard let index = plugins.firstIndex(of: plugin) else { return false }
    var failures: [ScriptError] = []
    box.withLock { box in
      let state = box.state
      let top = lua_gettop(state.L)
      state.pushReference(state.setStateRef)
      state.pushText(plugin)
      lua_createtable(state.L, 0, 0)
      do throws(ScriptError) {
        try state.protectedCall(arguments: 2, results: 0)
      } catch {
        lua_settop(state.L, top)
        failures.append(ScriptError("plugin '\(plugin)': its state could not be reset (\(error.message))"))
      }
      box.lastStates.forget(plugin)
      box.savedStates[plugin] = nil
      box.unsaved[index] = true
    }
    report(failures)
    return failures.isEmpty
  }
}
