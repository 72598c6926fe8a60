// What plugins ask of the host (award, unlock, notify, publish), checked and bounded.
internal import CLuaSandbox
internal import Dwell

/// Plugin actions as they arrive from Lua: each checked (whole points, ids the pack
/// declares), its text clipped, and counted against the pack's output per tick and in
/// total; what exceeds a limit is dropped, and reported once per plugin and kind.
enum PluginActions {
  /// Counts of the pack's output, per tick and while it is loaded.
  struct Output {
    var tick: Int64 = .min
    var inTick = 0
    var total = 0
    /// "plugin/kind" already reported as dropped.
    var reported = Set<String>()
    /// Reports waiting to be delivered (by the runtime, outside the state's lock).
    var reports: [ScriptError] = []

    /// Whether one more action fits in the tick of `instant` (nothing counted).
    func hasRoom(at instant: MonotonicInstant, limits: ScriptLimits) -> Bool {
      instant.nanoseconds / 1_000_000_000 != tick || inTick < limits.actionsPerTick
    }

    /// Whether one more action fits; if not, queues one report for `plugin` and `kind`.
    mutating func admit(
      _ kind: String, plugin: String, instant: MonotonicInstant, limits: ScriptLimits, place: String,
      counts: Bool = true
    ) -> Bool {
      let tick = instant.nanoseconds / 1_000_000_000
      if tick != self.tick {
        self.tick = tick
        inTick = 0
      }
      let limit: String? =
        inTick >= limits.actionsPerTick
        ? "\(limits.actionsPerTick) actions per tick"
        : counts && total >= limits.actionsTotal ? "\(limits.actionsTotal) actions in total" : nil
      guard let limit else {
        inTick += 1
        if counts { total += 1 }
        return true
      }
      if reported.insert("\(plugin)/\(kind)").inserted {
        reports.append(
          ScriptError("\(place) plugin '\(plugin)': \(kind) over the limit of \(limit) are dropped (sandbox)"))
      }
      return false
    }
  }

  /// Published values: at most this many keys per plugin, each at most this many bytes of JSON.
  static let publishedKeys = 64
  static let publishedBytes = 16 << 10

  static let action: dwell_lua_host_function = { L in
    guard let L, let state = LuaState.owner(L) else { return 0 }
    let kind = state.describe(1)
    let plugin = state.describe(2)
    let place = state.whereCalled()
    let limits = state.limits
    let text = 4 * limits.messageLength + 4  // bytes read of a text: a character is at most 4
    func admit(_ what: String, counts: Bool = true) -> Bool {
      state.output.admit(what, plugin: plugin, instant: state.now, limits: limits, place: place, counts: counts)
    }
    /// A reason or a body: nil, or a string (a table or a number there is a mistake, said).
    func isTextOrNil(_ index: Int32) -> Bool { lua_type(L, index) <= LUA_TNIL || lua_type(L, index) == LUA_TSTRING }
    func notText(_ index: Int32, _ what: String, _ example: String) -> Int32 {
      let got = String(cString: lua_typename(L, lua_type(L, index)))
      return state.raise("\(place) \(what) must be a string, as in \(example), not a \(got)")
    }
    switch kind {
    case "award":
      guard lua_isinteger(L, 3) != 0, (0...1_000_000).contains(lua_tointegerx(L, 3, nil)) else {
        return state.raise(
          "\(place) award takes whole points from 0 to 1,000,000, as in owl.award(10, \"reason\"); "
            + "it got \(clip(state.describe(3, atMost: 160), 40))")
      }
      guard isTextOrNil(4) else { return notText(4, "award's reason", "owl.award(10, \"late practice\")") }
      let reason = lua_type(L, 4) == LUA_TSTRING ? clip(state.describe(4, atMost: text), limits.messageLength) : ""
      guard admit("awards") else { return 0 }
      state.actions.append(.award(points: Int(lua_tointegerx(L, 3, nil)), reason: reason, source: plugin))
    case "unlock":
      guard lua_type(L, 3) == LUA_TSTRING else { return state.raise("\(place) unlock needs a rule id") }
      // An id is at most `idLength` bytes: one more says it is none, without reading the rest.
      let id = state.describe(3, atMost: LuaState.idLength + 1)
      guard state.collector.unlockable.contains(id) else {
        // An achievement with tiers is its tiers: name the first, or the nearest id.
        let tier = state.collector.rules.first { $0.achievement == id && $0.tier != nil }
        // The search of the rules and the hint's comparisons, charged to the script.
        let searched = Int64(state.collector.rules.count + state.collector.unlockable.count)
        let compared = Int64(min(state.collector.unlockable.count, Spelling.comparedAtMost))
        dwell_lua_host_work(L, searched * 16 + compared * 64)
        let hint =
          tier.map { ", but its tiers are (unlock one, as in p.unlock(\"\($0.id)\"))" }
          ?? Spelling.hint(for: id, in: state.collector.unlockable)
        return state.raise(
          "\(place) unlock '\(clip(id, 64))': not a rule of this pack\(hint); "
            + "a plugin unlocks only a rule its own pack declares")
      }
      guard admit("unlocks") else { return 0 }
      state.actions.append(.unlock(id))
    case "notify":
      guard lua_type(L, 3) == LUA_TSTRING else {
        return state.raise("\(place) notify needs a title, as in owl.notify(\"Night owl\", \"10 minutes after 23:00\")")
      }
      guard isTextOrNil(4) else { return notText(4, "notify's body", "owl.notify(\"Night owl\", \"10 minutes\")") }
      let body = lua_type(L, 4) == LUA_TSTRING ? clip(state.describe(4, atMost: text), limits.messageLength) : nil
      guard admit("notifications") else { return 0 }
      let title = clip(state.describe(3, atMost: text), limits.messageLength)
      state.actions.append(.notify(UsageNotification(source: plugin, title: title, body: body, instant: state.now)))
    case "progress":
      return progress(state, plugin: plugin, place: place, admit: { admit("progress reports", counts: false) })
    default:  // publish
      guard lua_type(L, 3) == LUA_TSTRING else { return state.raise("\(place) publish needs a key") }
      let key = clip(state.describe(3, atMost: 4 * 128 + 4), 128)
      // Past the tick's limit the value is dropped: said before any work converting it.
      guard state.output.hasRoom(at: state.now, limits: limits) || admit("publishes", counts: false) else {
        return 0
      }
      let value: JSONValue
      switch Result(catching: { () throws(ScriptError) in try state.json(at: 4) }) {
      case .success(let v): value = v
      case .failure(let error): return state.raise("\(place) publish: \(error.message)")
      }
      let text = value.rendered()
      guard text.utf8.count <= publishedBytes else {
        return state.raise("\(place) publish '\(key)': the value is larger than \(publishedBytes / 1024) KiB")
      }
      let keys = state.published[plugin]?.count ?? 0
      guard state.published[plugin]?[key] != nil || keys < publishedKeys else {
        return state.raise("\(place) publish '\(key)': a plugin publishes at most \(publishedKeys) keys")
      }
      guard admit("publishes", counts: false) else { return 0 }
      state.published[plugin, default: [:]][key] = text
    }
    return 0
  }
}
