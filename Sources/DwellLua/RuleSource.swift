public import Dwell
internal import Foundation

/// Rules loaded from a path: a JSON rules file, a Lua script, or a directory of scripts.
public struct RuleSource: Sendable {
  /// The rules.
  public var rules: [Rule]
  /// The Lua pack they came from, if any (diagnostics, printed lines, memory).
  public var pack: LuaRulePack?

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
      let pack = try LuaRulePack(contentsOf: path, limits: limits)
      return RuleSource(rules: pack.rules, pack: pack)
    }
    guard let data = FileManager.default.contents(atPath: path) else { throw RuleError("\(path): cannot be read") }
    return RuleSource(rules: try Rule.parseJSON(String(decoding: data, as: UTF8.self), file: path), pack: nil)
  }
}
