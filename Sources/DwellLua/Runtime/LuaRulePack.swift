internal import CLuaSandbox
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
/// try tracker.setRules(pack: pack)   // its rules, levels and plugins
/// ```
public final class LuaRulePack: UsageListener, StatefulListener {
  /// The rules the scripts declared, in order.
  public let rules: [Rule]
  /// The files loaded, in order.
  public let files: [String]
  /// The levels the scripts defined with `levels { ... }`, lowest first.
  public let levels: [Level]
  /// Names of the plugins that subscribe to events.
  public let plugins: [String]
  /// Whether a plugin listens to `tick` (the engine then wakes at every second of app time).
  package let wantsTicks: Bool
  /// The pack's name: its plugins keep their saved states under `lua:<name>/<plugin>`, apart
  /// from other packs'.
  public let name: String
  let runtime: LuaRuntime
  /// The scripts and limits it was loaded from (`loadedAfresh()` loads them afresh).
  package let scripts: [(name: String, text: String)]
  package let limits: ScriptLimits
  /// What this load found, for loading the scripts again without parsing them (``reinstalled()``).
  let known: Known
  /// Whether this load parsed the definitions (`false` for a reinstall that took a
  /// first load's rules).
  package let parsedDefinitions: Bool

  /// Loads scripts given as (name, text) pairs, in order, into one state.
  ///
  /// - Throws: `RuleError` with the file and line, or the rule's id, when a script does
  ///   not load: a syntax error, an unknown key, a rule with both or neither of `when`
  ///   and `check`, a repeated id, or a declarative condition the JSON form would reject.
  ///   - name: the pack's name (see ``name``); by default the folder's or the single file's
  ///     name without `.lua`.
  public convenience init(
    scripts: [(name: String, text: String)], limits: ScriptLimits = ScriptLimits(), name: String? = nil
  ) throws(RuleError) {
    try self.init(scripts: scripts, limits: limits, name: name, known: nil)
  }

  /// Loads the scripts; with `known` (what a load of the same scripts found), their
  /// definitions are not parsed again (``reinstalled()``), and it throws when they define
  /// other ids this time.
  init(
    scripts: [(name: String, text: String)], limits: ScriptLimits, name: String?, known: Known?
  ) throws(RuleError) {
    let state: LuaState
    do {
      state = try LuaState(
        limits: limits,
        definitions: [("subscribe", Self.subscribe), ("action", PluginActions.action)])
      LuaDefinitions.install(on: state)
    } catch {
      throw RuleError(error.message)
    }
    state.collector.replaying = known != nil
    for script in scripts {
      state.collector.file = script.name
      do {
        try state.run(script.text, name: script.name)
      } catch {
        throw LuaDefinitions.ruleError(error.message, file: script.name, source: script.text)
      }
    }
    if let unfinished = LuaDefinitions.unfinished(state) { throw unfinished }
    state.actions.removeAll()
    if let known { try Self.adopt(known, in: state) }
    parsedDefinitions = known == nil
    self.known = Known(
      rules: state.collector.rules, defined: state.collector.defined, ids: state.collector.ids,
      unlockable: state.collector.unlockable)
    rules = state.collector.rules
    levels = state.collector.levels
    plugins = Array(Set(state.collector.subscriptions.values.joined())).sorted()
    files = scripts.map(\.name)
    self.scripts = scripts
    self.limits = limits
    wantsTicks = !(state.collector.subscriptions["tick"] ?? []).isEmpty
    self.name = name ?? Self.defaultName(scripts.map(\.name))
    state.callables = rules.count { $0.condition.containsCheck } + plugins.count
    runtime = LuaRuntime(state: state, pack: self.name)
    for rule in rules { rule.condition.bind(to: runtime, rule: rule.id) }
  }

  /// Loads a `.lua` file, or every `.lua` file in a directory (sorted by name). The pack is
  /// named after the path (as a tracker names its rules folder): the folder's name, or the file's without `.lua`.
  public convenience init(contentsOf path: String, limits: ScriptLimits = ScriptLimits()) throws(RuleError) {
    try self.init(scripts: Self.read(path), limits: limits, name: Self.name(ofPath: path))
  }

  /// The name of the pack loaded from `path`, however it is loaded (a tracker at launch and
  /// on every reload, `dwell sim`, `test`, `balance`, `replay --rules`): the folder's name,
  /// whatever files it holds, or the file's name without `.lua`. Plugin states are kept
  /// under it, so it must not change between loads of the same path.
  package static func name(ofPath path: String) -> String { defaultName([path]) }

  /// The single file's name, or the folder the files share, without `.lua` (for scripts
  /// given without a path, ``init(scripts:limits:name:)``).
  static func defaultName(_ paths: [String]) -> String {
    let folders = Set(paths.map { $0.split(separator: "/").dropLast().last.map(String.init) ?? "" })
    if paths.count > 1, folders.count == 1, let folder = folders.first, !folder.isEmpty { return folder }
    let file = paths.first?.split(separator: "/").last.map(String.init) ?? "pack"
    return file.hasSuffix(".lua") ? String(file.dropLast(4)) : file
  }

  /// The scripts at `path`: the file itself, or the `.lua` files of a directory.
  package static func read(_ path: String) throws(RuleError) -> [(name: String, text: String)] {
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
      scripts.append((file, try RuleFile.script(file)))
    }
    return scripts
  }

  /// Errors raised by scripted checks since the pack was loaded (newest last, at most 500).
  public var diagnostics: [ScriptError] { runtime.diagnostics }

  /// Calls `handler` for every error a scripted check raises (the check is then disabled).
  public func onDiagnostic(_ handler: @escaping @Sendable (ScriptError) -> Void) {
    runtime.onDiagnostic(handler)
  }

  /// Lines the scripts printed with `print` (newest last, at most 200), each starting with
  /// the `file:line:` of the call, control characters escaped.
  public var printed: [String] { runtime.printed }

  /// Calls `handler` with each line a script prints (as in ``printed``), soon after the
  /// check or plugin that printed it returns; lines printed while loading come with the
  /// first call after that. A tick hands over at most ``ScriptLimits/printLines`` lines.
  public func onPrint(_ handler: @escaping @Sendable (String) -> Void) {
    runtime.onPrint(handler)
  }

  /// Bytes the pack's Lua state holds.
  public var memoryInUse: Int { runtime.memoryInUse }

  // MARK: Plugins and the host

  /// Gives the pack's plugins the states saved by earlier runs (the engine calls this).
  package func restore(states: [String: String]) { runtime.restore(states: states) }

  /// Runs the plugins subscribed to `event` (the engine calls this).
  package func receive(_ event: UsageEvent, usage: UsageFigures) -> [UsageAction] {
    runtime.receive(event, usage: usage)
  }

  /// The plugins' states changed since the last call (the engine calls this when it saves).
  package func takeStates() -> [UsageAction] { runtime.takeStates() }

  /// Whether a plugin ran since its state was last taken.
  package var hasUnsavedStates: Bool { runtime.hasUnsavedStates }

  /// What each plugin published with `publish(key, value)`, by plugin and key.
  public var published: [String: [String: HostValue]] { runtime.published.mapValues { $0.mapValues(HostValue.init) } }

  /// ``published`` as the scripts' JSON trees (numbers keep their literals).
  package var publishedJSON: [String: [String: JSONValue]] { runtime.published }

  /// A plugin's state now, as its JSON tree (`nil`: no such plugin); for the designer's tools.
  package func state(of plugin: String) throws(ScriptError) -> JSONValue? { try runtime.state(of: plugin) }

  /// The file each plugin is defined in, by plugin (what a reload compares).
  package var pluginFiles: [String: String] { runtime.pluginFiles }

  /// Starts `plugin`'s state afresh (an empty table), saved at the engine's next save.
  package func resetState(of plugin: String) -> Bool { runtime.resetState(of: plugin) }

  /// Exposes a value to scripts as `host.name` (a string, number, boolean or table).
  ///
  /// ```swift
  /// pack.setHostValue("subscriber", .bool(user.isSubscriber))
  /// pack.setHostValue("level", 3)
  /// ```
  public func setHostValue(_ name: String, _ value: HostValue) { runtime.setHost(name, value: value.json) }

  /// Exposes a function to scripts as `host.name(...)`. It runs on the engine's processing
  /// context, inside the script's call: keep it quick and non-blocking.
  public func setHostFunction(_ name: String, _ function: @escaping @Sendable ([HostValue]) -> HostValue) {
    runtime.setHost(name, function: { function($0.map(HostValue.init)).json }, trampoline: Self.hostCall)
  }

  // MARK: Plugin actions (the rule language itself is LuaDefinitions)

  private static let subscribe: dwell_lua_host_function = { L in
    guard let L, let state = LuaState.owner(L) else { return 0 }
    let name = state.describe(1)
    let event = state.describe(2)
    if !state.loading {
      state.collector.handlersAddedLate = true
    } else if lua_tointegerx(L, 4, nil) == 1, lua_type(L, 3) == LUA_TFUNCTION {
      lua_pushvalue(L, 3)
      state.collector.soleHandlers[event, default: [:]][name] = state.reference()
    } else if let ref = state.collector.soleHandlers[event]?.removeValue(forKey: name) {
      luaL_unref(L, dwell_lua_registryindex(), ref)
    }
    if !state.collector.subscriptions[event, default: []].contains(name) {
      state.collector.subscriptions[event, default: []].append(name)
    }
    if state.collector.places[name] == nil { state.collector.places[name] = state.whereCalled() }
    return 0
  }

  private static let hostCall: dwell_lua_host_function = { L in
    guard let L, let state = LuaState.owner(L) else { return 0 }
    let name = state.describe(dwell_lua_upvalueindex(2))
    guard let function = state.hostFunctions[name] else { return state.raise("host.\(name) is not available") }
    var arguments: [JSONValue] = []
    for index in 0..<lua_gettop(L) {
      do throws(ScriptError) {
        arguments.append(try state.json(at: index + 1, root: "argument \(index + 1)"))
      } catch {
        return state.raise(
          "\(state.whereCalled()) host.\(name) takes strings, numbers, booleans and tables: \(error.message)")
      }
    }
    guard state.push(function(arguments)) else {
      return state.raise("\(state.whereCalled()) host.\(name) returned a value too large or deep for scripts")
    }
    return 1
  }
}
