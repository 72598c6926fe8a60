internal import CLuaSandbox
internal import Dwell
internal import Foundation

/// The rule language as scripts see it (`unlock`, `achievement`, `levels`), turned into rules
/// and levels; every load error names the file, the line, the rule or tier, and the fix.
enum LuaDefinitions {
  /// Defines `unlock`, `achievement` and `levels` in `state`.
  static func install(on state: LuaState) {
    state.setGlobal("unlock", unlockName)
    state.setGlobal("achievement", achievementName)
    state.setGlobal("levels", levels)
  }

  // MARK: unlock "id" { ... } and achievement "id" { ... }

  private static let unlockName: dwell_lua_host_function = { L in named(L, kind: "unlock") }
  private static let achievementName: dwell_lua_host_function = { L in named(L, kind: "achievement") }

  private static func named(_ L: OpaquePointer?, kind: String) -> Int32 {
    guard let L, let state = LuaState.owner(L) else { return 0 }
    let place = state.whereCalled()
    guard lua_type(L, 1) == LUA_TSTRING, !state.describe(1).isEmpty else {
      return state.raise("\(place) \(kind) needs an id, as in \(kind) \"my-rule\" { ... }")
    }
    let id = state.describe(1)
    if let refusal = afterLoading(state, "\(kind) \"\(clip(id, 64))\"", place: place) { return refusal }
    guard lua_gettop(L) == 1 else {
      return state.raise(
        "\(place) rule '\(id)': the table goes right after the id, as in \(kind) \"\(id)\" { when = { ... } }, "
          + "not \(kind)(\"\(id)\", { ... })")
    }
    let order = state.collector.pending.count + state.collector.rules.count
    state.collector.pending[id] = .init(kind: kind, place: place, file: state.collector.file, order: order)
    lua_pushvalue(L, 1)
    dwell_lua_pushhost(L, kind == "unlock" ? defineUnlock : defineAchievement, 1)
    return 1
  }

  private static let defineUnlock: dwell_lua_host_function = { L in define(L, achievement: false) }
  private static let defineAchievement: dwell_lua_host_function = { L in define(L, achievement: true) }

  private static func define(_ L: OpaquePointer?, achievement: Bool) -> Int32 {
    guard let L, let state = LuaState.owner(L) else { return 0 }
    let id = state.describe(dwell_lua_upvalueindex(2))
    let place = state.whereCalled()
    let kind = achievement ? "achievement" : "unlock"
    if let refusal = afterLoading(state, "\(kind) \"\(clip(id, 64))\"", place: place) { return refusal }
    state.collector.pending[id] = nil
    if state.collector.replaying { return replay(state, id: id) }
    // Parse with the stack in order, then raise with nothing left to pop. The ids are taken
    // only now that the whole definition holds: one that fails (inside a `pcall`, say)
    // leaves no id a plugin could unlock.
    switch parse(state, id: id, achievement: achievement) {
    case .success(let rules):
      let at = self.place(state)
      state.collector.ids[id] = at  // an achievement's own id, with tiers or without
      for rule in rules {
        state.collector.ids[rule.id] = at
        state.collector.unlockable.insert(rule.id)
      }
      state.collector.rules += rules
      state.collector.defined.append(id)
      state.charge(Int64(rules.count * ScriptLimits.workPerDefinition))
      return 0
    case .failure(let failure):
      return state.raise("\(place) rule '\(id)': \(failure.message)")
    }
  }

  private static func parse(_ state: LuaState, id: String, achievement: Bool) -> Result<[Rule], DefinitionFailure> {
    let L = state.L
    let kind = achievement ? "achievement" : "unlock"
    guard dwell_lua_istable(L, 1) != 0 else {
      return .failure(
        DefinitionFailure("\(kind) \"\(id)\" takes a table, as in \(kind) \"\(id)\" { when = { sessions = 3 } }"))
    }
    let allowed: Set<String> =
      achievement
      ? ["when", "check", "title", "description", "summary", "points", "hidden", "tiers", "every", "from", "to"]
      : ["when", "check", "title", "description", "summary", "every", "from", "to"]
    if let failure = unknownKey(state.keys(ofTable: 1), allowed: allowed, in: kind) { return .failure(failure) }
    let keys = Set(state.keys(ofTable: 1))
    if let failure = taken(id, state) { return .failure(failure) }
    var base: Rule
    if keys.contains("tiers") {
      guard !keys.contains("when"), !keys.contains("check") else {
        return .failure(
          DefinitionFailure(
            "an achievement has either tiers or 'when'/'check', not both; move the condition into a tier"))
      }
      base = Rule(id, when: .sessions(0))
    } else {
      switch condition(state, table: 1) {
      case .success(let condition): base = Rule(id, when: condition)
      case .failure(let failure): return .failure(failure)
      }
    }
    do throws(DefinitionFailure) {
      base.title = try text(state, table: 1, key: "title")
      // `summary` (the Swift property's name) is accepted for `description`.
      base.summary = try text(state, table: 1, key: "description")
      if base.summary == nil { base.summary = try text(state, table: 1, key: "summary") }
      base.isHidden = try flag(state, table: 1, key: "hidden")
      // `every` (recurring), `from`, `to` (dates), read as the JSON form reads them.
      let (every, from, to) = try (
        text(state, table: 1, key: "every"), text(state, table: 1, key: "from"), text(state, table: 1, key: "to")
      )
      do { try base.setPeriod(every: every, from: from, to: to) } catch { throw DefinitionFailure(error.message) }
    } catch {
      return .failure(error)
    }
    if achievement {
      base.achievement = id
      switch points(state, table: 1) {
      case .success(let value): base.points = value
      case .failure(let failure): return .failure(failure)
      }
    }
    guard keys.contains("tiers") else { return .success([base]) }
    lua_getfield(L, 1, "tiers")
    defer { dwell_lua_pop(L, 1) }
    return tiers(state, base: base)
  }

  /// The tiers of the achievement `base`, from the list on top of the stack.
  private static func tiers(_ state: LuaState, base: Rule) -> Result<[Rule], DefinitionFailure> {
    let L = state.L
    let example = "tiers = { { \"bronze\", when = { ... }, points = 10 }, { \"silver\", ... } }"
    guard dwell_lua_istable(L, -1) != 0 else {
      return .failure(DefinitionFailure("'tiers' must be a list, as in \(example)"))
    }
    let count = Int(lua_rawlen(L, -1))
    guard count > 0 else {
      let named = state.keys(ofTable: -1).sorted()
      let found = named.isEmpty ? "it is empty" : "it has keys (\(named.joined(separator: ", "))) instead of a list"
      return .failure(DefinitionFailure("'tiers' must list at least one tier, but \(found); write \(example)"))
    }
    var rules: [Rule] = []
    var seen = Set<String>()  // the tiers' ids so far: a repeat is found in one look-up, not a scan
    for position in 1...count {
      // The host's work on a long list counts towards the load's time limit as it goes.
      if position % 64 == 0, state.pastDeadline() { return .failure(DefinitionFailure(state.timeLimitMessage)) }
      _ = lua_rawgeti(L, -1, lua_Integer(position))
      let tier = self.tier(state, base: base, position: position)
      dwell_lua_pop(L, 1)
      switch tier {
      case .success(let rule):
        let name = rule.tier ?? ""
        guard seen.insert(rule.id).inserted else {
          return .failure(DefinitionFailure("tier '\(name)' is repeated; give each tier its own name"))
        }
        if let owner = owner(of: rule.id, state) {
          return .failure(
            DefinitionFailure(
              "tier '\(name)': its id '\(rule.id)' is already taken by \(owner); rename the tier or that rule"))
        }
        rules.append(rule)
      case .failure(let failure): return .failure(failure)
      }
    }
    return .success(rules)
  }

  /// Tier `position` of `base`, from the table on top of the stack.
  private static func tier(_ state: LuaState, base: Rule, position: Int) -> Result<Rule, DefinitionFailure> {
    let L = state.L
    guard dwell_lua_istable(L, -1) != 0 else {
      return .failure(
        DefinitionFailure("tier \(position) must be a table, as in { \"bronze\", when = { ... }, points = 10 }"))
    }
    _ = lua_rawgeti(L, -1, 1)
    let name = lua_type(L, -1) == LUA_TSTRING ? state.describe(-1) : ""
    dwell_lua_pop(L, 1)
    guard !name.isEmpty else {
      return .failure(
        DefinitionFailure("tier \(position) needs a name first, as in { \"bronze\", when = { ... }, points = 10 }"))
    }
    func failure(_ message: String) -> Result<Rule, DefinitionFailure> {
      .failure(DefinitionFailure("tier '\(name)': \(message)"))
    }
    let keys = state.keys(ofTable: -1).filter { $0 != "[1]" }
    if let odd = unknownKey(keys, allowed: ["when", "check", "points", "title"], in: "a tier") {
      return failure(odd.message)
    }
    var tier = base
    tier.id = "\(base.id)/\(name)"
    // Each part is an id of at most `idLength` bytes; the whole must be one too, or no plugin
    // could name the tier to `p.unlock` (which reads an id that far) and stores would hold more.
    guard tier.id.utf8.count <= LuaState.idLength else {
      return failure(
        "its id '\(base.id)/\(name)' is \(tier.id.utf8.count) bytes, and an id (achievement, '/', tier) is at most "
          + "\(LuaState.idLength); shorten the achievement's id or the tier's name")
    }
    tier.tier = name
    switch condition(state, table: -1) {
    case .success(let condition): tier.condition = condition
    case .failure(let problem): return failure(problem.message)
    }
    switch points(state, table: -1) {
    case .success(let value): tier.points = value
    case .failure(let problem): return failure(problem.message)
    }
    do throws(DefinitionFailure) {
      tier.title = try text(state, table: -1, key: "title")
      if tier.title == nil { tier.title = base.title }
    } catch {
      return failure(error.message)
    }
    return .success(tier)
  }

  /// Who has `id` already, said as the fix; `nil` when it is free (``define`` takes it once
  /// the definition holds).
  private static func taken(_ id: String, _ state: LuaState) -> DefinitionFailure? {
    guard let owner = owner(of: id, state) else { return nil }
    return DefinitionFailure("the id is already taken by \(owner); give each rule its own id")
  }

  /// The error that refuses a definition (`what`, as in `unlock "x"`) made once the pack's
  /// files have run: from a check, a plugin's handler or a function kept for later. A pack's
  /// rules are what its files declare; one defined later would grow the pack's memory at
  /// every call and give plugins ids the host never saw. `nil` while the files run.
  static func afterLoading(_ state: LuaState, _ what: String, place: String) -> Int32? {
    guard !state.loading else { return nil }
    return state.raise(
      "\(place) \(what): rules, achievements, levels and plugins are defined only while the pack loads "
        + "(at the top level of a file), not from a check or a plugin; move it out of the function")
  }

  /// `defining(kind, name)`, which the prelude's `plugin` calls first: raises, at the
  /// script's line, once the pack's files have run (see ``afterLoading(_:_:place:)``).
  static let defining: dwell_lua_host_function = { L in
    guard let L, let state = LuaState.owner(L) else { return 0 }
    let what = "\(state.describe(1, atMost: 16)) \"\(clip(state.describe(2, atMost: 4 * 64 + 4), 64))\""
    return afterLoading(state, what, place: state.whereCalled()) ?? 0
  }

  /// The `file:line` of the script code defining a rule now.
  private static func place(_ state: LuaState) -> String {
    let place = state.whereCalled()
    return place.hasSuffix(":") ? String(place.dropLast()) : place
  }

  private static func owner(of id: String, _ state: LuaState) -> String? {
    guard let taken = state.collector.ids[id] else { return nil }
    let at = taken.isEmpty ? "" : " (\(taken))"
    guard let rule = state.collector.rules.first(where: { $0.id == id }) else { return "another rule\(at)" }
    if let tier = rule.tier, let achievement = rule.achievement {
      return "tier '\(tier)' of achievement '\(achievement)'\(at)"
    }
    return "an earlier \(rule.achievement == nil ? "unlock" : "achievement")\(at)"
  }

  private static func unknownKey(_ keys: [String], allowed: Set<String>, in kind: String) -> DefinitionFailure? {
    guard let odd = keys.filter({ !allowed.contains($0) }).sorted().first else { return nil }
    let takes = "\(kind) takes \(allowed.sorted().joined(separator: ", "))"
    if odd.hasPrefix("[") {
      return DefinitionFailure("a value without a key (\(odd)); name it, as in when = { ... }; \(takes)")
    }
    return DefinitionFailure("unknown key '\(odd)'\(Spelling.hint(for: odd, in: allowed)); \(takes)")
  }

  /// The `when` or `check` of the table at `index`.
  private static func condition(_ state: LuaState, table index: Int32) -> Result<Condition, DefinitionFailure> {
    let L = state.L
    let index = lua_absindex(L, index)
    lua_getfield(L, index, "when")
    let hasWhen = !(dwell_lua_isnil(L, -1) != 0)
    lua_getfield(L, index, "check")
    let hasCheck = !(dwell_lua_isnil(L, -1) != 0)
    guard hasWhen != hasCheck else {
      dwell_lua_pop(L, 2)
      return .failure(
        DefinitionFailure(
          hasWhen
            ? "it has both 'when' and 'check'; keep one (a condition, or a function of the usage)"
            : "it needs 'when' (a condition, as in when = { sessions = 3 }) or 'check' (a function of the usage)"))
    }
    if hasCheck {
      guard dwell_lua_isfunction(L, -1) != 0 else {
        dwell_lua_pop(L, 2)
        return .failure(
          DefinitionFailure("'check' must be a function, as in check = function(u) return u.sessions >= 3 end"))
      }
      let ref = state.reference()  // pops the function
      dwell_lua_pop(L, 1)
      return .success(.check(.init(LuaCheck(ref: ref, rule: ""))))
    }
    dwell_lua_pop(L, 1)
    let parsed = Result { try Condition.parse(try state.json(at: -1, root: "when")) }
    dwell_lua_pop(L, 1)
    switch parsed {
    case .success(let condition): return .success(condition)
    case .failure(let error as RuleError): return .failure(DefinitionFailure(error.message))
    case .failure(let error): return .failure(DefinitionFailure((error as? ScriptError)?.message ?? "\(error)"))
    }
  }

  private static func points(_ state: LuaState, table index: Int32) -> Result<Int, DefinitionFailure> {
    let L = state.L
    lua_getfield(L, index, "points")
    defer { dwell_lua_pop(L, 1) }
    if dwell_lua_isnil(L, -1) != 0 { return .success(0) }
    guard lua_isinteger(L, -1) != 0 else {
      return .failure(
        DefinitionFailure(
          "'points' must be a whole number, not \(clip(state.describe(-1, atMost: 164), 40)), as in points = 10"))
    }
    let value = lua_tointegerx(L, -1, nil)
    guard (0...1_000_000).contains(value) else {
      return .failure(DefinitionFailure("'points' must be from 0 to 1,000,000, not \(value)"))
    }
    return .success(Int(value))
  }
}
