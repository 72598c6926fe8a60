// Plugins in the simulator: `state PLUGIN` shows a plugin's state and what it published;
// after a reload that changed a plugin's code, `state PLUGIN keep|reset` keeps or resets it.
internal import Dwell
internal import DwellLua
internal import Foundation

extension Simulator {
  /// The `state` command: `state` lists the plugins, `state PLUGIN` shows its state and
  /// published values, `state PLUGIN reset` starts its state afresh (the session goes on),
  /// `state PLUGIN keep` keeps it as it is.
  func stateCommand(_ args: [String]) throws(CommandError) -> String {
    guard let pack = source?.pack, !pack.plugins.isEmpty else { throw CommandError("the rules have no plugins") }
    guard let name = args.first else {
      return "Plugins: " + pack.plugins.joined(separator: ", ") + ". 'state PLUGIN' shows one."
    }
    guard pack.plugins.contains(name) else {
      throw CommandError(
        "no plugin '\(name)'\(Spelling.hint(for: name, in: pack.plugins)); plugins: \(pack.plugins.joined(separator: ", "))"
      )
    }
    switch args.dropFirst().first?.lowercased() {
    case nil: return try stateText(pack, name)
    case "keep" where args.count == 2:
      changedPlugins.remove(name)
      return "Plugin '\(name)' keeps its state."
    case "reset" where args.count == 2:
      try requireRunning()
      changedPlugins.remove(name)
      guard pack.resetState(of: name) else { throw CommandError("plugin '\(name)': its state could not be reset") }
      // Reloading hands the new (empty) state to a fresh copy of the pack: a plugin the old
      // state broke (disabled by its error) runs again; time, screens and unlocks stay.
      reloadIfChanged(force: true)
      return "Plugin '\(name)' starts with an empty state; the session goes on."
    default:
      throw CommandError("state takes a plugin, then optionally keep or reset: state \(name), state \(name) reset")
    }
  }

  /// A plugin's state and published values, one `key = value` a line.
  private func stateText(_ pack: LuaRulePack, _ name: String) throws(CommandError) -> String {
    var lines = ["Plugin '\(name)'\(changedPlugins.contains(name) ? " (its code changed at the last reload)" : ""):"]
    do {
      lines += Self.members(try pack.state(of: name) ?? .object([]), prefix: "  state.")
    } catch {
      lines.append("  state: cannot be read (\(error.message))")
    }
    let published = pack.publishedJSON[name] ?? [:]
    lines +=
      published.isEmpty
      ? ["  published: nothing"]
      : published.keys.sorted().map { key in
        "  published \(key) = \(published[key]?.rendered() ?? "null")"
      }
    return lines.flatMap { TerminalText.wrap($0, answerWidth, indent: 4) }.joined(separator: "\n")
  }

  /// A state's top-level members as `prefixkey = value` lines ("  state: {}" when empty).
  private static func members(_ value: JSONValue, prefix: String) -> [String] {
    guard case .object(let members) = value else { return ["\(prefix.dropLast()) = \(value.rendered())"] }
    guard !members.isEmpty else { return ["\(prefix.dropLast()) = {}"] }
    return members.sorted { $0.key < $1.key }.map { "\(prefix)\($0.key) = \($0.value.rendered())" }
  }

  /// After a reload: says which plugins' code changed since `old` (their file's text), and
  /// how to keep or reset each one's state. Remembers them for `state`.
  func notePluginChanges(from old: LuaRulePack?, to new: LuaRulePack?) {
    guard let old, let new else { return }
    let before = Dictionary(old.scripts.map { ($0.name, $0.text) }) { first, _ in first }
    let after = Dictionary(new.scripts.map { ($0.name, $0.text) }) { first, _ in first }
    let files = new.pluginFiles
    for plugin in new.plugins where old.plugins.contains(plugin) {
      guard let file = files[plugin], let name = Self.script(named: file, in: after.keys),
        before[name] != after[name]
      else { continue }
      changedPlugins.insert(plugin)
      note(
        "Plugin '\(plugin)' changed (\(withinPack(CommandError(name)))): it keeps its state; 'state \(plugin) reset' "
          + "starts it afresh, 'state \(plugin)' shows it", .info)
    }
  }

  /// The script a place's file names: itself, or the one it is the end of (Lua shortens
  /// long names to "...end/of/path.lua").
  private static func script(named file: String, in names: Dictionary<String, String>.Keys) -> String? {
    if names.contains(file) { return file }
    let tail = file.hasPrefix("...") ? String(file.dropFirst(3)) : file
    return names.first { $0.hasSuffix(tail) }
  }

  /// Remembers each unlocked rule's condition as it was when it unlocked (for `explain`):
  /// `replacing` for an unlock happening now (also one `undo` or `reset` replays), else
  /// only for rules not remembered yet.
  func rememberVersions(of rules: [Rule], unlocked: some Sequence<String>, replacing: Bool = false) {
    for id in unlocked where replacing || unlockedUnder[id] == nil {
      if let rule = rules.first(where: { $0.id == id }) { unlockedUnder[id] = "\(rule.condition)" }
    }
  }

  /// For `explain`: the line saying a rule unlocked under an earlier definition, or `nil`.
  func earlierVersion(of rule: Rule) -> String? {
    guard let then = unlockedUnder[rule.id], then != "\(rule.condition)" else { return nil }
    return "  Unlocked under an earlier version: then \(then), now \(rule.condition)."
  }
}
