// Plugins of a pack: dispatching events to them, and saving (at checkpoints) and restoring their states.
internal import CLuaSandbox
internal import Dwell

extension LuaRuntime {
  /// The events plugins subscribe to, as scripts name them (``subscribers`` is by this index).
  static let eventNames = [
    "screen_enter", "screen_leave", "session_start", "pause", "day_start", "unlock", "tick", "action", "level_up",
  ]

  /// `event`'s index in ``eventNames``, its argument, and its second argument (a number:
  /// an action's count, the points total at a level-up).
  static func eventIndex(_ event: UsageEvent) -> (Int, String?, Int?) {
    switch event {
    case .screenEntered(let name): return (0, name, nil)
    case .screenLeft(let name): return (1, name, nil)
    case .sessionStarted: return (2, nil, nil)
    case .paused: return (3, nil, nil)
    case .dayStarted(let day): return (4, day.description, nil)
    case .unlocked(let id): return (5, id, nil)
    case .tick: return (6, nil, nil)
    case .action(let name, let count): return (7, name, count)
    case .levelUp(let level, let points): return (8, level, points)
    }
  }

  /// Runs the plugins subscribed to `event`; returns their actions. Their states stay live
  /// in Lua, marked unsaved, until ``takeStates()``.
  func receive(_ event: UsageEvent, usage: UsageFigures) -> [UsageAction] {
    let (kind, argument, number) = Self.eventIndex(event)
    let subscribed = subscribers[kind]
    guard !subscribed.isEmpty else { return [] }
    var failures: [ScriptError] = []
    var prints: [String] = []
    let actions = box.withLock { box -> [UsageAction] in
      let state = box.state
      let L = state.L
      defer { prints = state.takePrints() }
      enter(&box, usage.instant, &failures)
      var actions: [UsageAction] = []
      let direct = !state.collector.handlersAddedLate
      for (n, index) in subscribed.enumerated() {
        let plugin = plugins[index]
        if !box.disabledPlugins.isEmpty, box.disabledPlugins.contains(plugin) { continue }
        guard !state.tickSpent else { break }
        ensureUsage(&box, usage)
        state.now = usage.instant
        if !state.actions.isEmpty { state.actions.removeAll() }
        // A plugin's only handler of the event is called as `dispatch` would call it.
        let sole = direct ? soleHandlers[kind][n] : LUA_NOREF
        if sole == LUA_NOREF {
          state.pushReference(state.dispatchRef)
          state.pushReference(pluginRefs[index])
          state.pushReference(eventRefs[kind])
        } else {
          state.pushReference(sole)
        }
        state.pushReference(box.usage?.proxy ?? LUA_REFNIL)
        if let argument { state.pushText(argument) } else { lua_pushnil(L) }
        if let number { lua_pushinteger(L, lua_Integer(number)) }
        box.unsaved[index] = true
        do {
          defer { if state.lastWork > 0 { box.costs[costKeys[index], default: 0] += state.lastWork } }
          let arguments: Int32 = (sole == LUA_NOREF ? 4 : 2) + (number == nil ? 0 : 1)
          try state.protectedCall(arguments: arguments, results: 0, usage: usage)
          if !state.actions.isEmpty { actions += state.actions }
        } catch {
          var failure = error as? ScriptError ?? ScriptError("\(error)")
          failure.message = "plugin '\(plugin)': \(failure.message)"
          disable("plugin:" + plugin, failure, &box, &failures)
        }
        if !state.actions.isEmpty { state.actions.removeAll() }
      }
      if !state.output.reports.isEmpty {
        failures += state.output.reports
        state.output.reports.removeAll()
      }
      return actions
    }
    report(failures)
    if !prints.isEmpty { deliver(prints) }
    return actions
  }

  /// The states of the plugins that ran since the last call and changed since last saved,
  /// as `.saveState` actions, with the saved states that did not load (set aside). The
  /// engine asks before it saves (a checkpoint, a commit, a reload), so a handler that
  /// changes its state every second costs no JSON text in between.
  ///
  /// A state that cannot be saved disables its plugin (reported). A plugin disabled by an
  /// error has its state saved as its handlers left it: its earlier calls' changes go with
  /// the points and unlocks they gave.
  func takeStates() -> [UsageAction] {
    var failures: [ScriptError] = []
    let actions = box.withLock { box -> [UsageAction] in
      var actions: [UsageAction] = box.quarantined.map { .saveState(source: "quarantine:" + $0.0, data: $0.1) }
      box.quarantined.removeAll()
      let state = box.state
      // Reading, writing out and checking the states is the pack's work: charged to it.
      let started = state.hostWorkStart()
      var written = 0  // bytes of states written out
      defer { state.chargeHostWork(since: started, work: Int64(written / 4)) }
      var packBytes = box.savedStates.values.reduce(0) { $0 + $1.utf8.count }
      for index in plugins.indices where box.unsaved[index] {
        box.unsaved[index] = false
        let plugin = plugins[index]
        pushState(index, state)
        do throws(ScriptError) {
          // Compared byte for byte: `String.==` takes "é" and "e" + U+0301 as equal.
          let text = try savedState(state, plugin, &box.lastStates)
          written += text?.utf8.count ?? 0
          if let saved = text, box.savedStates[plugin].map({ $0.utf8.elementsEqual(saved.utf8) }) != true {
            let others = packBytes - (box.savedStates[plugin]?.utf8.count ?? 0)
            guard saved.utf8.count <= Self.packStateBytes - others else {
              throw ScriptError(
                "its state (\(saved.utf8.count / 1024) KiB) would take the states of the pack's plugins past "
                  + "\(Self.packStateBytes >> 20) MiB in all (sandbox limit)")
            }
            packBytes = others + saved.utf8.count
            box.savedStates[plugin] = saved
            actions.append(.saveState(source: namespace + plugin, data: saved))
          }
        } catch {
          var failure = error
          failure.message = "plugin '\(plugin)': \(failure.message)"
          if box.disabledPlugins.contains(plugin) {
            failures.append(failure)
          } else {
            disable("plugin:" + plugin, failure, &box, &failures)
          }
        }
      }
      failures += state.output.reports
      state.output.reports.removeAll()
      return actions
    }
    report(failures)
    return actions
  }

  /// The bytes the saved states of a pack's plugins may add up to (each at most 64 KiB): what
  /// the host keeps of them, in memory and in the store, stays bounded however many plugins
  /// the pack has.
  static let packStateBytes = 1 << 20

  /// Whether a plugin ran since its state was last saved.
  var hasUnsavedStates: Bool { box.withLock { $0.unsaved.contains(true) } }

  /// Pushes plugin `index`'s state as its table holds it, read raw (no metamethod runs).
  func pushState(_ index: Int, _ state: LuaState) {
    let L = state.L
    state.pushReference(state.pluginsRef)
    state.pushReference(pluginRefs[index])
    guard lua_rawget(L, -2) == LUA_TTABLE else {
      lua_settop(L, -3)
      return lua_pushnil(L)
    }
    lua_pushstring(L, "state")
    _ = lua_rawget(L, -2)
    dwell_lua_remove(L, -2)
    dwell_lua_remove(L, -2)
  }

  /// The plugin's state (on top of the stack, as ``pushState(_:_:)`` read it; popped) as JSON
  /// text, `nil` when it is exactly the value read last time (`last`), or throws when it
  /// cannot be saved: too large, or a value that would not load again.
  ///
  /// A state that still matches the value read last time (``LuaState/matches(_:at:)``:
  /// the same members, numbers and bytes) would read and render the same text, which
  /// passed every check then, so it is not read again. Any other is read whole within the
  /// sandbox's bounds on size, depth and cycles, written out, measured and parsed again.
  fileprivate func savedState(
    _ state: LuaState, _ plugin: String, _ last: inout StateCache
  ) throws(ScriptError) -> String? {
    let L = state.L
    defer { dwell_lua_pop(L, 1) }
    if let previous = last[plugin], state.matches(previous, at: -1) { return nil }
    last.forget(plugin)
    let value: JSONValue
    do {
      value = try state.json(at: -1, plain: true, root: "state")
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
    last.keep(value, bytes: text.utf8.count, for: plugin)
    return text
  }

  /// Gives plugins the states saved by earlier runs: their own pack's only. A state an
  /// older version saved under the plugin's bare name is adopted only when no other pack
  /// has a state on the store (``mayAdoptBareStates(_:)``), and is then saved under the
  /// pack's key. A state that does not load is reported, set aside under
  /// `quarantine:<key>`, and the plugin starts afresh.
  func restore(states: [String: String]) {
    var failures: [ScriptError] = []
    let adopting = states.keys.contains(where: Self.isBare) && mayAdoptBareStates(states)
    box.withLock { box in
      let state = box.state
      for (index, plugin) in plugins.enumerated() {
        let key = namespace + plugin
        let adopted = states[key] == nil && adopting && Self.isBare(plugin)
        guard let text = states[key] ?? (adopted ? states[plugin] : nil) else { continue }
        let top = lua_gettop(state.L)
        do {
          let value: JSONValue
          do { value = try JSONParser.parse(text) } catch { throw ScriptError("it is not valid JSON") }
          state.pushReference(state.setStateRef)
          state.pushText(plugin)
          guard state.push(value) else {
            throw ScriptError("it is deeper or larger than the sandbox allows")
          }
          try state.protectedCall(arguments: 2, results: 0)
          // An adopted state is not saved under the pack's key yet: the next save writes it.
          box.savedStates[plugin] = adopted ? nil : text
          box.lastStates.forget(plugin)
          if adopted { box.unsaved[index] = true }
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
