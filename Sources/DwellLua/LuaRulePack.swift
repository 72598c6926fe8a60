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
public final class LuaRulePack: Sendable {
  /// The rules the scripts declared, in order.
  public let rules: [Rule]
  /// The files loaded, in order.
  public let files: [String]
  let runtime: LuaRuntime

  /// Loads scripts given as (name, text) pairs, in order, into one state.
  ///
  /// - Throws: ``RuleError`` with the file and line, or the rule's id, when a script does
  ///   not load: a syntax error, an unknown key, a rule with both or neither of `when`
  ///   and `check`, a repeated id, or a declarative condition the JSON form would reject.
  public init(scripts: [(name: String, text: String)], limits: ScriptLimits = ScriptLimits()) throws(RuleError) {
    let state: LuaState
    do {
      state = try LuaState(limits: limits)
      try state.run(Self.prelude, name: "dwell-prelude")
    } catch {
      throw RuleError(error.message)
    }
    state.setGlobal("unlock", Self.unlock)
    for script in scripts {
      state.collector.file = script.name
      do {
        try state.run(script.text, name: script.name)
      } catch {
        throw Self.ruleError(error.message, file: script.name)
      }
    }
    rules = state.collector.rules
    files = scripts.map(\.name)
    runtime = LuaRuntime(state: state)
    for rule in rules { rule.condition.bind(to: runtime) }
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

  // MARK: The language

  static let prelude = """
    function minutes(n) return n * 60 end
    function hours(n) return n * 3600 end
    function days(n) return n * 86400 end
    """

  /// Splits Lua's `file:line: message` so the error names its file and line. An unclosed
  /// bracket is reported at the line that opened it, where the mistake is.
  static func ruleError(_ message: String, file: String) -> RuleError {
    var message = message
    if let open = message.range(of: "at line "), message.contains("(to close"),
      let line = Int(message[open.upperBound...].prefix(while: \.isNumber)),
      let colon = message.firstIndex(of: ":")
    {
      let rest = message[message.index(after: colon)...].drop(while: \.isNumber).dropFirst()
      message = "\(message[..<colon]):\(line): a bracket opened here is never closed (\(rest.trimmingCharacters(in: .whitespaces)))"
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

  private static let unlock: dwell_lua_host_function = { L in
    guard let state = LuaState.owner(L) else { return 0 }
    guard lua_type(L, 1) == LUA_TSTRING, let id = Optional(state.describe(1)), !id.isEmpty else {
      return state.raise("\(state.whereCalled()) unlock needs an id, as in unlock \"my-rule\" { ... }")
    }
    lua_pushvalue(L, 1)
    dwell_lua_pushhost(L, define, 1)
    return 1
  }

  private static let allowedKeys: Set<String> = ["when", "check", "title", "description"]

  private static let define: dwell_lua_host_function = { L in
    guard let state = LuaState.owner(L) else { return 0 }
    let id = state.describe(dwell_lua_upvalueindex(2))
    let place = state.whereCalled()
    func fail(_ message: String) -> Int32 { state.raise("\(place) rule '\(id)': \(message)") }
    guard dwell_lua_istable(L, 1) != 0 else {
      return fail("unlock \"\(id)\" takes a table, as in unlock \"\(id)\" { when = { ... } }")
    }
    let keys = state.keys(ofTable: 1)
    if let odd = keys.filter({ !allowedKeys.contains($0) }).sorted().first {
      return fail("unknown key '\(odd)' (a rule has when, check, title, description)")
    }
    guard state.collector.ids.insert(id).inserted else { return fail("the id is repeated") }
    let hasWhen = keys.contains("when")
    let hasCheck = keys.contains("check")
    guard hasWhen != hasCheck else {
      return fail(hasWhen ? "a rule has either 'when' or 'check', not both" : "a rule needs 'when' or 'check'")
    }
    var rule: Rule
    if hasWhen {
      lua_getfield(L, 1, "when")
      let parsed = Result { try Condition.parse(try state.json(at: -1)) }
      dwell_lua_pop(L, 1)
      switch parsed {
      case .success(let condition): rule = Rule(id, when: condition)
      case .failure(let error as RuleError): return fail(error.message)
      case .failure(let error): return fail((error as? ScriptError)?.message ?? "\(error)")
      }
    } else {
      lua_getfield(L, 1, "check")
      guard dwell_lua_isfunction(L, -1) != 0 else {
        dwell_lua_pop(L, 1)
        return fail("'check' must be a function, as in check = function(u) return ... end")
      }
      let ref = state.reference()
      rule = Rule(id, when: .check(LuaCheck(ref: ref, rule: id)))
    }
    for (key, path) in [("title", \Rule.title), ("description", \Rule.summary)] {
      lua_getfield(L, 1, key)
      if lua_type(L, -1) == LUA_TSTRING { rule[keyPath: path] = state.describe(-1) }
      dwell_lua_pop(L, 1)
    }
    state.collector.rules.append(rule)
    return 0
  }
}

/// A scripted check: a Lua function of the usage, run in its pack's state.
final class LuaCheck: RuleCheck, @unchecked Sendable {
  // @unchecked: `runtime` is set once, before the pack is published, and never again.
  let ref: Int32
  let rule: String
  private(set) var runtime: LuaRuntime?

  init(ref: Int32, rule: String) {
    self.ref = ref
    self.rule = rule
  }

  func bind(_ runtime: LuaRuntime) { self.runtime = runtime }

  func holds(_ usage: UsageView) -> Bool {
    runtime?.evaluate(ref: ref, rule: rule, usage) ?? false
  }
}

extension Condition {
  func bind(to runtime: LuaRuntime) {
    switch self {
    case .check(let check): (check as? LuaCheck)?.bind(runtime)
    case .all(let parts), .any(let parts): for part in parts { part.bind(to: runtime) }
    default: break
    }
  }
}
