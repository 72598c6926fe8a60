public import Dwell
internal import Foundation

/// Rules loaded from a path: a JSON rules file, a Lua script, or a directory of scripts.
public struct RuleSource: Sendable {
  /// The rules.
  public var rules: [Rule]
  /// The Lua pack they came from, if any (diagnostics, printed lines, memory).
  public var pack: LuaRulePack?
  /// The scripts the pack was made from, to make a fresh one (plugins back at their start).
  private var scripts: [(name: String, text: String)] = []
  private var limits = ScriptLimits()

  /// Loads rules from `path`, choosing the form by the path: a directory or `.lua` file is
  /// a Lua pack, anything else is the JSON form.
  ///
  /// - Throws: `RuleError` with the file and line or the rule's id.
  public static func load(_ path: String, limits: ScriptLimits = ScriptLimits()) throws(RuleError) -> RuleSource {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw RuleError("\(path): no such file or directory")
    }
    if isDirectory.boolValue || path.hasSuffix(".lua") {
      let pack = try LuaRulePack(contentsOf: path, limits: limits)  // named as a tracker names it
      // What concerns more than one rule (`unlocked` cycles), as the JSON form checks it.
      var set = RuleSet(rules: pack.rules)
      set.levels = pack.levels  // `level` parts name the pack's levels
      do { try set.validate() } catch {
        throw RuleError(rule: error.rule, error.message, file: error.file ?? path, line: error.line)
      }
      return RuleSource(rules: pack.rules, pack: pack, scripts: pack.scripts, limits: limits)
    }
    let data = try RuleFile.read(path)
    let rules = try Rule.parseJSON(String(decoding: data, as: UTF8.self), file: path)
    for rule in rules {  // shown in logs and terminals, as a Lua pack's are
      if let bad = LuaDefinitions.badText(rule.title, "title") ?? LuaDefinitions.badText(rule.summary, "description") {
        throw RuleError("\(path): rule '\(rule.id)': \(bad.message)")
      }
    }
    return RuleSource(rules: rules, pack: nil)
  }

  /// The same rules in a fresh Lua state, as if just loaded from the same texts: plugin
  /// state and diagnostics start again (for a simulation that restarts its world).
  package func fresh() -> RuleSource {
    guard let old = pack, let pack = try? LuaRulePack(scripts: scripts, limits: limits, name: old.name) else {
      return self
    }
    return RuleSource(rules: pack.rules, pack: pack, scripts: scripts, limits: limits)
  }
}
