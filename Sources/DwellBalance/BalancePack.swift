// A rule pack read once for a balance run, made into fresh rules and plugins for each simulated user.
package import Dwell
internal import DwellLua
internal import Foundation

/// A rule pack as a balance run uses it: read once, then instantiated per simulated user.
///
/// A pack with scripted checks or plugins keeps state in its Lua state (plugin state,
/// disabled checks, the scripts' upvalues), so every user gets a fresh one, as a fresh
/// install would: the pack's files run again in a new state, but their definitions are
/// parsed and validated once per run, not once per user (`LuaRulePack.reinstalled()`). A
/// declarative pack's rules are plain values and are shared.
package struct BalancePack: Sendable {
  /// What the report says about a rule.
  package struct RuleInfo: Sendable, Equatable {
    package var id: String
    package var title: String?
    package var points: Int
    package var achievement: String?
    package var tier: String?
    package var scripted: Bool
    /// The period of a recurring rule (`every`): `day`, `week` or `month`; `nil` for a
    /// rule earned once.
    package var every: String? = nil
  }

  /// The path it was read from.
  package let path: String
  package let rules: [RuleInfo]
  package let levels: [Level]
  package let plugins: [String]
  /// Whether each user needs a fresh Lua state (scripted checks or plugins).
  package let stateful: Bool
  /// The pack as loaded, for a stateful pack: each user's is a reinstall of it.
  private let loaded: LuaRulePack?
  private let shared: [Rule]
  /// The base levels the loaded pack's rules validated with (validation does not depend on
  /// the rest of the base, or on the user).
  private let validated = Locked<[[Level]]>([])
  /// Whether each user's pack is a reinstall of the loaded one (`false`: the files loaded in
  /// full for each user, as before; for tests comparing the two).
  package var reinstalls = true

  /// Reads a pack: a `.json` rules file, a `.lua` file or a directory of them.
  ///
  /// - Throws: `RuleError` with the file and line when the pack does not load.
  package init(path: String) throws(RuleError) {
    self.path = path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw RuleError("\(path): no such file or directory")
    }
    if isDirectory.boolValue || path.hasSuffix(".lua") {
      let pack = try LuaRulePack(contentsOf: path, limits: .tools)  // named as a tracker names it
      levels = pack.levels
      plugins = pack.plugins
      stateful = !pack.plugins.isEmpty || pack.rules.contains { Self.isScripted($0.condition) }
      loaded = stateful ? pack : nil
      shared = stateful ? [] : pack.rules
      rules = pack.rules.map(Self.info)
    } else {
      let source = try RuleSource.load(path)
      levels = []
      plugins = []
      stateful = false
      loaded = nil
      shared = source.rules
      rules = source.rules.map(Self.info)
    }
  }

  private static func info(_ rule: Rule) -> RuleInfo {
    RuleInfo(
      id: rule.id, title: rule.title, points: rule.points, achievement: rule.achievement, tier: rule.tier,
      scripted: isScripted(rule.condition), every: rule.every?.name)
  }

  static func isScripted(_ condition: Condition) -> Bool {
    switch condition {
    case .check: return true
    case .all(let parts), .any(let parts): return parts.contains(where: isScripted)
    default: return false
    }
  }

  /// An engine configuration for one user: the pack's rules, levels and plugins, fresh
  /// when the pack keeps state. `diagnostics` counts errors scripts raise.
  package func configuration(
    base: Engine.Configuration, diagnostics: (@Sendable (String) -> Void)? = nil
  ) throws(RuleError) -> Engine.Configuration {
    guard stateful, let loaded else {
      var configuration = try RuleSet(rules: shared).validated(base: base)
      configuration.levels = base.levels + levels
      return configuration
    }
    guard reinstalls else {
      let pack = try LuaRulePack(scripts: loaded.scripts, limits: .tools, name: loaded.name)
      if let diagnostics { pack.onDiagnostic { diagnostics($0.description) } }
      return try RuleSet(pack: pack).validated(base: base)
    }
    if !validated.withLock({ $0.contains(base.levels) }) {
      _ = try RuleSet(pack: loaded).validated(base: base)
      validated.withLock { $0.append(base.levels) }
    }
    // Each user's state has the tools' limits: at most their total host time per simulated
    // user, every call counted by its work alone (the same figures under any load).
    let pack = try loaded.reinstalled(limits: .tools)
    if let diagnostics { pack.onDiagnostic { diagnostics($0.description) } }
    return RuleSet(pack: pack).configuration(base: base)
  }

  /// The level index reached with `points` (0 with no levels).
  package func level(points: Int) -> Int {
    levels.lastIndex { $0.points <= points } ?? 0
  }
}
