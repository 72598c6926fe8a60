internal import CLua
public import Dwell
internal import Foundation

/// A rule pack written in Lua: one or more `.lua` files loaded into one sandboxed state.
///
/// ```lua
/// -- rules/learning.lua
/// unlock "ten-minutes-of-lessons" {
///   title = "Bonus level",
///   when = { screen = "Lessons", seconds = minutes(10) },
/// }
/// unlock "night-owl" {
///   check = function(u) return u.hour >= 23 and u.screen("Lessons").today_seconds >= 600 end,
/// }
/// ```
///
/// ```swift
/// let pack = try LuaRulePack(contentsOf: "rules/learning.lua")
/// let engine = try Engine(store: store, configuration: .init(rules: pack.rules))
/// ```
public final class LuaRulePack: UsageListener {
  /// The rules the scripts declared, in order.
  public let rules: [Rule]
  /// The files loaded, in order.
  public let files: [String]
  /// The levels the scripts defined with `levels { ... }`, lowest first.
  public let levels: [Level]
  /// Names of the plugins that subscribe to events.
  public let plugins: [String]
  /// Whether a plugin listens to `tick` (the engine then wakes at every second of app time).
  public let wantsTicks: Bool
  let runtime: LuaRuntime

  /// Loads scripts given as (name, text) pairs, in order, into one state.
  ///
  /// - Throws: `RuleError` with the file and line, or the rule's id, when a script does
  ///   not load: a syntax error, an unknown key, a rule with both or neither of `when`
  ///   and `check`, a repeated id, or a declarative condition the JSON form would reject.
  public init(scripts: [(name: String, text: String)], limits: ScriptLimits = ScriptLimits()) throws(RuleError) {
    let state: LuaState
    do {
      state = try LuaState(limits: limits)
      state.setGlobal("__dwell_subscribe", Self.subscribe)
      state.setGlobal("__dwell_action", Self.action)
      try state.runPrelude(Prelude.text.get())
    } catch {
      throw RuleError(error.message)
    }
    state.setGlobal("unlock", Self.unlockName)
    state.setGlobal("achievement", Self.achievementName)
    state.setGlobal("levels", Self.levels)
    lua_createtable(state.L, 0, 0)
    lua_setglobal(state.L, "host")
    for script in scripts {
      state.collector.file = script.name
      do {
        try state.run(script.text, name: script.name)
      } catch {
        throw Self.ruleError(error.message, file: script.name)
      }
    }
    state.actions.removeAll()
    rules = state.collector.rules
    levels = state.collector.levels
    plugins = Array(Set(state.collector.subscriptions.values.joined())).sorted()
    files = scripts.map(\.name)
    wantsTicks = !(state.collector.subscriptions["tick"] ?? []).isEmpty
    runtime = LuaRuntime(state: state)
    for rule in rules { rule.condition.bind(to: runtime, rule: rule.id) }
  }

  /// Loads a `.lua` file, or every `.lua` file in a directory (sorted by name).
  public convenience init(contentsOf path: String, limits: ScriptLimits = ScriptLimits()) throws(RuleError) {
    try self.init(scripts: Self.read(path), limits: limits)
  }

  /// The scripts at `path`: the file itself, or the `.lua` files of a directory.
  static func read(_ path: String) throws(RuleError) -> [(name: String, text: String)] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw RuleError("\(path): no such file or directory")
    }
    var paths = [path]
    if isDirectory.boolValue {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      paths = names.filter { $0.hasSuffix(".lua") && !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
    }
    var scripts: [(name: String, text: String)] = []
    for file in paths {
      guard let data = FileManager.default.contents(atPath: file) else {
        throw RuleError("\(file): cannot be read")
      }
      guard data.count <= 4 << 20 else { throw RuleError("\(file): larger than 4 MiB") }
      scripts.append((file, String(decoding: data, as: UTF8.self)))
    }
    return scripts
  }

  /// Errors raised by scripted checks since the pack was loaded (newest last, at most 500).
  public var diagnostics: [ScriptError] { runtime.diagnostics }

  /// Calls `handler` for every error a scripted check raises (the check is then disabled).
  public func onDiagnostic(_ handler: @escaping @Sendable (ScriptError) -> Void) {
    runtime.onDiagnostic(handler)
  }

  /// Lines the scripts printed with `print` (newest last, at most 200).
  public var printed: [String] { runtime.printed }

  /// Bytes the pack's Lua state holds.
  public var memoryInUse: Int { runtime.memoryInUse }

  // MARK: Plugins and the host

  /// Gives the pack's plugins the states saved by earlier runs (the engine calls this).
  public func restore(states: [String: String]) { runtime.restore(states: states) }

  /// Runs the plugins subscribed to `event` (the engine calls this).
  public func receive(_ event: UsageEvent, usage: UsageView) -> [UsageAction] {
    runtime.receive(event, usage: usage)
  }

  /// What each plugin published with `publish(key, value)`, by plugin and key.
  public var published: [String: [String: JSONValue]] { runtime.published }

  /// Exposes a value to scripts as `host.name` (a string, number, boolean or table).
  ///
  /// ```swift
  /// pack.setHostValue("subscriber", .bool(user.isSubscriber))
  /// ```
  public func setHostValue(_ name: String, _ value: JSONValue) { runtime.setHost(name, value: value) }

  /// Exposes a function to scripts as `host.name(...)`. It runs on the engine's processing
  /// context, inside the script's call: keep it quick and non-blocking.
  public func setHostFunction(_ name: String, _ function: @escaping @Sendable ([JSONValue]) -> JSONValue) {
    runtime.setHost(name, function: function, trampoline: Self.hostCall)
  }

  // MARK: The language

  /// Splits Lua's `file:line: message` so the error names its file and line. An unclosed
  /// bracket is reported at the line that opened it, where the mistake is.
  static func ruleError(_ message: String, file: String) -> RuleError {
    var message = message
    if let open = message.range(of: "at line "), message.contains("(to close"),
      let line = Int(message[open.upperBound...].prefix(while: \.isNumber)),
      let colon = message.firstIndex(of: ":")
    {
      let rest = message[message.index(after: colon)...].drop(while: \.isNumber).dropFirst()
      message =
        "\(message[..<colon]):\(line): a bracket opened here is never closed (\(rest.trimmingCharacters(in: .whitespaces)))"
    }
    let parts = message.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
    if parts.count == 3, let line = Int(parts[1]) {
      let text = parts[2].trimmingCharacters(in: .whitespaces)
      if let start = text.range(of: "rule '"), let end = text[start.upperBound...].firstIndex(of: "'") {
        let rule = String(text[start.upperBound..<end])
        let rest = text[text.index(after: end)...].trimmingCharacters(in: CharacterSet(charactersIn: ": "))
        return RuleError(rule: rule, rest, file: file, line: line)
      }
      return RuleError(text, file: file, line: line)
    }
    return RuleError(message, file: file)
  }

  private static let unlockName: dwell_lua_host_function = { L in named(L, kind: "unlock") }
  private static let achievementName: dwell_lua_host_function = { L in named(L, kind: "achievement") }

  private static func named(_ L: OpaquePointer?, kind: String) -> Int32 {
    guard let L, let state = LuaState.owner(L) else { return 0 }
    guard lua_type(L, 1) == LUA_TSTRING, !state.describe(1).isEmpty else {
      return state.raise("\(state.whereCalled()) \(kind) needs an id, as in \(kind) \"my-rule\" { ... }")
    }
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
    func fail(_ message: String) -> Int32 { state.raise("\(place) rule '\(id)': \(message)") }
    let kind = achievement ? "achievement" : "unlock"
    guard dwell_lua_istable(L, 1) != 0 else {
      return fail("\(kind) \"\(id)\" takes a table, as in \(kind) \"\(id)\" { when = { ... } }")
    }
    let allowed: Set<String> =
      achievement
      ? ["when", "check", "title", "description", "points", "hidden", "tiers"]
      : ["when", "check", "title", "description"]
    let keys = state.keys(ofTable: 1)
    if let odd = keys.filter({ !allowed.contains($0) }).sorted().first {
      return fail("unknown key '\(odd)' (\(kind) takes \(allowed.sorted().joined(separator: ", ")))")
    }
    guard state.collector.ids.insert(id).inserted else { return fail("the id is repeated") }
    var base: Rule
    if keys.contains("tiers") {
      guard !keys.contains("when"), !keys.contains("check") else {
        return fail("an achievement has either tiers or 'when'/'check', not both")
      }
      base = Rule(id, when: .sessions(0))
    } else {
      switch condition(state, table: 1) {
      case .success(let condition): base = Rule(id, when: condition)
      case .failure(let failure): return fail(failure.message)
      }
    }
    for (key, path) in [("title", \Rule.title), ("description", \Rule.summary)] {
      lua_getfield(L, 1, key)
      if lua_type(L, -1) == LUA_TSTRING { base[keyPath: path] = state.describe(-1) }
      dwell_lua_pop(L, 1)
    }
    lua_getfield(L, 1, "hidden")
    base.isHidden = lua_toboolean(L, -1) != 0
    dwell_lua_pop(L, 1)
    if achievement {
      base.achievement = id
      switch points(state, table: 1) {
      case .success(let value): base.points = value
      case .failure(let failure): return fail(failure.message)
      }
    }
    guard keys.contains("tiers") else {
      state.collector.rules.append(base)
      return 0
    }
    lua_getfield(L, 1, "tiers")
    defer { dwell_lua_pop(L, 1) }
    guard dwell_lua_istable(L, -1) != 0 else {
      return fail("'tiers' must be a list, as in tiers = { { \"bronze\", when = { ... }, points = 10 } }")
    }
    let tiers = Int(lua_rawlen(L, -1))
    guard tiers > 0 else { return fail("'tiers' must not be empty") }
    for position in 1...tiers {
      _ = lua_rawgeti(L, -1, lua_Integer(position))
      defer { dwell_lua_pop(L, 1) }
      guard dwell_lua_istable(L, -1) != 0 else { return fail("tier \(position) must be a table") }
      _ = lua_rawgeti(L, -1, 1)
      let name = lua_type(L, -1) == LUA_TSTRING ? state.describe(-1) : ""
      dwell_lua_pop(L, 1)
      guard !name.isEmpty else {
        return fail("tier \(position) needs a name first, as in { \"bronze\", when = { ... } }")
      }
      let tierKeys = state.keys(ofTable: -1).filter { $0 != "[1]" }
      if let odd = tierKeys.filter({ !["when", "check", "points", "title"].contains($0) }).sorted().first {
        return fail("tier '\(name)': unknown key '\(odd)' (a tier takes when, check, points, title)")
      }
      var tier = base
      tier.id = "\(id)/\(name)"
      tier.tier = name
      guard state.collector.ids.insert(tier.id).inserted else { return fail("tier '\(name)' is repeated") }
      switch condition(state, table: -1) {
      case .success(let condition): tier.condition = condition
      case .failure(let failure): return fail("tier '\(name)': \(failure.message)")
      }
      switch points(state, table: -1) {
      case .success(let value): tier.points = value
      case .failure(let failure): return fail("tier '\(name)': \(failure.message)")
      }
      lua_getfield(L, -1, "title")
      if lua_type(L, -1) == LUA_TSTRING { tier.title = state.describe(-1) }
      dwell_lua_pop(L, 1)
      state.collector.rules.append(tier)
    }
    return 0
  }

  /// The `when` or `check` of the table at `index`.
  private static func condition(_ state: LuaState, table index: Int32) -> Result<Condition, Failure> {
    let L = state.L
    let index = lua_absindex(L, index)
    lua_getfield(L, index, "when")
    let hasWhen = !(dwell_lua_isnil(L, -1) != 0)
    lua_getfield(L, index, "check")
    let hasCheck = !(dwell_lua_isnil(L, -1) != 0)
    guard hasWhen != hasCheck else {
      dwell_lua_pop(L, 2)
      return .failure(
        Failure(hasWhen ? "a rule has either 'when' or 'check', not both" : "a rule needs 'when' or 'check'"))
    }
    if hasCheck {
      guard dwell_lua_isfunction(L, -1) != 0 else {
        dwell_lua_pop(L, 2)
        return .failure(Failure("'check' must be a function, as in check = function(u) return ... end"))
      }
      let ref = state.reference()  // pops the function
      dwell_lua_pop(L, 1)
      return .success(.check(LuaCheck(ref: ref, rule: "")))
    }
    dwell_lua_pop(L, 1)
    let parsed = Result { try Condition.parse(try state.json(at: -1)) }
    dwell_lua_pop(L, 1)
    switch parsed {
    case .success(let condition): return .success(condition)
    case .failure(let error as RuleError): return .failure(Failure(error.message))
    case .failure(let error): return .failure(Failure((error as? ScriptError)?.message ?? "\(error)"))
    }
  }

  private static func points(_ state: LuaState, table index: Int32) -> Result<Int, Failure> {
    let L = state.L
    lua_getfield(L, index, "points")
    defer { dwell_lua_pop(L, 1) }
    if dwell_lua_isnil(L, -1) != 0 { return .success(0) }
    guard lua_isinteger(L, -1) != 0 else { return .failure(Failure("'points' must be a whole number")) }
    let value = lua_tointegerx(L, -1, nil)
    guard (0...1_000_000).contains(value) else { return .failure(Failure("'points' must be from 0 to 1,000,000")) }
    return .success(Int(value))
  }

  struct Failure: Error {
    var message: String
    init(_ message: String) { self.message = message }
  }

  private static let levels: dwell_lua_host_function = { L in
    guard let L, let state = LuaState.owner(L) else { return 0 }
    let place = state.whereCalled()
    guard dwell_lua_istable(L, 1) != 0, let value = try? state.json(at: 1), case .array(let items) = value,
      !items.isEmpty
    else {
      return state.raise("\(place) levels takes a list, as in levels { { \"Beginner\", 0 }, { \"Learner\", 50 } }")
    }
    guard state.collector.levels.isEmpty else { return state.raise("\(place) levels are defined twice") }
    var result: [Level] = []
    for item in items {
      guard case .array(let pair) = item, pair.count == 2, case .string(let name) = pair[0],
        case .number(let points, _) = pair[1], points >= 0, points == points.rounded(), points <= 1e15
      else {
        return state.raise(
          "\(place) each level is { \"Name\", points }, with whole points from 0 to 1,000,000,000,000,000")
      }
      result.append(Level(name, points: Int(points)))
    }
    guard Set(result.map(\.points)).count == result.count else {
      return state.raise("\(place) two levels need the same points")
    }
    state.collector.levels = result
    return 0
  }

  private static let subscribe: dwell_lua_host_function = { L in
    guard let L, let state = LuaState.owner(L) else { return 0 }
    let name = state.describe(1)
    let event = state.describe(2)
    if !state.collector.subscriptions[event, default: []].contains(name) {
      state.collector.subscriptions[event, default: []].append(name)
    }
    return 0
  }

  private static let action: dwell_lua_host_function = { L in
    guard let L, let state = LuaState.owner(L) else { return 0 }
    let kind = state.describe(1)
    let plugin = state.describe(2)
    let place = state.whereCalled(level: 2)
    switch kind {
    case "award":
      guard lua_isinteger(L, 3) != 0, abs(lua_tointegerx(L, 3, nil)) <= 1_000_000 else {
        return state.raise("\(place) award needs whole points (at most 1,000,000), as in owl.award(10, \"reason\")")
      }
      let reason = lua_type(L, 4) == LUA_TSTRING ? state.describe(4) : ""
      state.actions.append(.award(points: Int(lua_tointegerx(L, 3, nil)), reason: reason, source: plugin))
    case "unlock":
      guard lua_type(L, 3) == LUA_TSTRING else { return state.raise("\(place) unlock needs a rule id") }
      state.actions.append(.unlock(state.describe(3)))
    case "notify":
      guard lua_type(L, 3) == LUA_TSTRING else {
        return state.raise("\(place) notify needs a title, as in owl.notify(\"Night owl\", \"10 minutes after 23:00\")")
      }
      let body = lua_type(L, 4) == LUA_TSTRING ? state.describe(4) : nil
      state.actions.append(
        .notify(UsageNotification(source: plugin, title: state.describe(3), body: body, instant: state.now)))
    default:  // publish
      guard lua_type(L, 3) == LUA_TSTRING else { return state.raise("\(place) publish needs a key") }
      guard let value = try? state.json(at: 4) else {
        return state.raise("\(place) publish takes strings, numbers, booleans and tables of them")
      }
      state.published[plugin, default: [:]][state.describe(3)] = value
    }
    return 0
  }

  private static let hostCall: dwell_lua_host_function = { L in
    guard let L, let state = LuaState.owner(L) else { return 0 }
    let name = state.describe(dwell_lua_upvalueindex(2))
    guard let function = state.hostFunctions[name] else { return state.raise("host.\(name) is not available") }
    var arguments: [JSONValue] = []
    for index in 0..<lua_gettop(L) {
      guard let value = try? state.json(at: index + 1) else {
        return state.raise("\(state.whereCalled()) host.\(name) takes strings, numbers, booleans and tables")
      }
      arguments.append(value)
    }
    state.push(function(arguments))
    return 1
  }
}

/// A scripted check: a Lua function of the usage, run in its pack's state.
final class LuaCheck: RuleCheck, @unchecked Sendable {
  // @unchecked: `runtime` is set once, before the pack is published, and never again.
  let ref: Int32
  private(set) var rule: String
  private(set) var runtime: LuaRuntime?

  init(ref: Int32, rule: String) {
    self.ref = ref
    self.rule = rule
  }

  func bind(_ runtime: LuaRuntime, rule: String) {
    self.runtime = runtime
    self.rule = rule
  }

  func holds(_ usage: UsageView) -> Bool {
    runtime?.evaluate(ref: ref, rule: rule, usage) ?? false
  }
}

extension Condition {
  func bind(to runtime: LuaRuntime, rule: String) {
    switch self {
    case .check(let check): (check as? LuaCheck)?.bind(runtime, rule: rule)
    case .all(let parts), .any(let parts): for part in parts { part.bind(to: runtime, rule: rule) }
    default: break
    }
  }
}
