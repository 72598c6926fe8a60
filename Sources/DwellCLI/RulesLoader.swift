// Loading a rules path for the tools, and the engine configuration it gives, through the rule set.
internal import Dwell
internal import DwellLua
internal import Foundation

enum RulesLoader {
  /// Loads rules: a `.json` file, a `.lua` file, or a directory of `.lua` files. Errors
  /// that scripts raise later are printed on stderr as warnings.
  static func load(_ path: String) throws -> RuleSource {
    do {
      let source = try RuleSource.load(path, limits: .tools)
      source.pack?.onDiagnostic { writeError("warning: \($0)") }
      return source
    } catch {
      throw CommandFailure("invalid rules: \(error)")
    }
  }
}

extension RuleSource {
  /// `base` with these rules, levels and plugins, through the rule set every route takes
  /// (a JSON file's rules as the app's, a Lua pack as the pack).
  ///
  /// - Throws: ``CommandFailure`` when the set does not validate.
  func configuration(base: Engine.Configuration) throws -> Engine.Configuration {
    do {
      return try RuleSet(rules: pack == nil ? rules : [], pack: pack).validated(base: base)
    } catch {
      throw CommandFailure("invalid rules: \(error)")
    }
  }
}
