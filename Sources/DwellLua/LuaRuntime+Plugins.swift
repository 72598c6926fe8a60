// Plugins of a pack: dispatching events to them, and saving and restoring their states.
internal import CLua
internal import Dwell

extension LuaRuntime {
  static func eventName(_ event: UsageEvent) -> (String, String?) {
    switch event {
    case .screenEntered(let name): return ("screen_enter", name)
    case .screenLeft(let name): return ("screen_leave", name)
    case .sessionStarted: return ("session_start", nil)
    case .paused: return ("pause", nil)
    case .dayStarted(let day): return ("day_start", day.description)
    case .unlocked(let id): return ("unlock", id)
    case .tick: return ("tick", nil)
    }
  }

  /// Runs the plugins subscribed to `event`; returns their actions and state changes.
  func receive(_ event: UsageEvent, usage: UsageView) -> [UsageAction] {
    let (name, argument) = Self.eventName(event)
    guard let plugins = subscriptions[name], !plugins.isEmpty else { return [] }
    var failures: [ScriptError] = []
    var prints: [String] = []
    let actions = box.withLock { box -> [UsageAction] in
      let state = box.state
      let L = state.L
      defer { prints = state.takePrints() }
      enter(&box, usage.instant, &failures)
      var actions: [UsageAction] = box.quarantined.map { .saveState(source: "quarantine:" + $0.0, data: $0.1) }
      box.quarantined.removeAll()
      for plugin in plugins where !box.disabledPlugins.contains(plugin) {
        guard !state.tickSpent else { break }
        ensureUsage(&box, usage)
        state.now = usage.instant
        state.actions.removeAll()
        state.pushReference(state.dispatchRef)
        lua_pushstring(L, plugin)
        lua_pushstring(L, name)
        state.pushReference(box.usage?.proxy ?? LUA_REFNIL)
        if let argument { lua_pushstring(L, argument) } else { lua_pushnil(L) }
        do {
          defer { if state.lastWork > 0 { box.costs["plugin:" + plugin, default: 0] += state.lastWork } }
          try state.protectedCall(arguments: 4, results: 1, usage: usage)
          actions += state.actions
          // Compared byte for byte: `String.==` takes "é" and "e" + U+0301 as equal.
          if let saved = try savedState(state, plugin, &box.lastStates),
            box.savedStates[plugin].map({ $0.utf8.elementsEqual(saved.utf8) }) != true
          {
            box.savedStates[plugin] = saved
            actions.append(.saveState(source: namespace + plugin, data: saved))
          }
        } catch {
          var failure = error as? ScriptError ?? ScriptError("\(error)")
          failure.message = "plugin '\(plugin)': \(failure.message)"
          disable("plugin:" + plugin, failure, &box, &failures)
        }
        state.actions.removeAll()
      }
      failures += state.output.reports
      state.output.reports.removeAll()
      return actions
    }
    report(failures)
    if !prints.isEmpty { deliver(prints) }
    return actions
  }

  /// The plugin's state (on top of the stack, as the dispatch returned it; popped) as JSON
  /// text, `nil` when it is exactly the value read last time (`last`), or throws when it
  /// cannot be saved: too large, or a value that would not load again.
  ///
  /// A state that still matches the value read last time (``LuaState/matches(_:at:)``:
  /// the same members, numbers and bytes) would read and render the same text, which
  /// passed every check then, so it is not read again. Any other is read whole within the
  /// sandbox's bounds on size, depth and cycles, written out, measured and parsed again.
  fileprivate func savedState(
    _ state: LuaState, _ plugin: String, _ last: inout [String: JSONValue]
  ) throws(ScriptError) -> String? {
    let L = state.L
    defer { dwell_lua_pop(L, 1) }
    if let previous = last[plugin], state.matches(previous, at: -1) { return nil }
    last[plugin] = nil
    let value: JSONValue
    do {
      value = try state.json(at: -1, plain: true)
    } catch {
      throw ScriptError("\(state.collector.places[plugin] ?? "") its state cannot be saved: \(error.message)")
    }
    let text = value.rendered()
    guard text.utf8.count <= 64 << 10 else {
      throw ScriptError("its state is larger than 64 KiB (\(text.utf8.count / 1024) KiB) (sandbox limit)")
    }
    guard (try? JSONParser.parse(text)) != nil else {
      throw ScriptError("its state cannot be saved: it would not load")
    }
    last[plugin] = value
    return text
  }

  /// Gives plugins the states saved by earlier runs (their own pack's; a state saved under
  /// the plugin's bare name by an older version is taken when there is none). A state that
  /// does not load is reported, set aside under `quarantine:<key>`, and the plugin starts afresh.
  func restore(states: [String: String]) {
    var failures: [ScriptError] = []
    box.withLock { box in
      let state = box.state
      for plugin in Set(subscriptions.values.joined()).sorted() {
        let key = namespace + plugin
        guard let text = states[key] ?? states[plugin] else { continue }
        let top = lua_gettop(state.L)
        do {
          let value: JSONValue
          do { value = try JSONParser.parse(text) } catch { throw ScriptError("it is not valid JSON") }
          state.pushReference(state.setStateRef)
          lua_pushstring(state.L, plugin)
          guard state.push(value) else {
            throw ScriptError("it is deeper or larger than the sandbox allows")
          }
          try state.protectedCall(arguments: 2, results: 0)
          box.savedStates[plugin] = text
          box.lastStates[plugin] = nil
        } catch {
          lua_settop(state.L, top)
          box.quarantined.append((key, text))
          failures.append(
            ScriptError(
              "plugin '\(plugin)': its saved state did not load (\((error as? ScriptError)?.message ?? "\(error)")); "
                + "it starts afresh and the old state is kept under quarantine:\(key)"))
        }
      }
    }
    report(failures)
  }
}
