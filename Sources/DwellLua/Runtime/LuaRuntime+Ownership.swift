// Whose saved states a pack may read: its own namespace, and states older versions saved under bare plugin names.

extension LuaRuntime {
  /// The namespace of pack `pack`'s plugin states: `lua:<pack>/`, with `%` and `/` in the
  /// pack's name written `%25` and `%2F`. The pack's part ends at the first `/`, so no pack
  /// name and plugin name can make another pack's key, whatever characters they hold.
  static func namespace(of pack: String) -> String {
    var escaped = ""
    for character in pack {
      switch character {
      case "%": escaped += "%25"
      case "/": escaped += "%2F"
      default: escaped.append(character)
      }
    }
    return "lua:" + escaped + "/"
  }

  /// The pack whose namespace holds `key` (`lua:<pack>/...`, or a state set aside as
  /// `quarantine:lua:<pack>/...`), as it is written in keys; `nil` for other keys.
  static func owner(ofKey key: String) -> Substring? {
    var rest = Substring(key)
    if rest.hasPrefix("quarantine:") { rest = rest.dropFirst(11) }
    guard rest.hasPrefix("lua:"), let slash = rest.dropFirst(4).firstIndex(of: "/") else { return nil }
    return rest[rest.index(rest.startIndex, offsetBy: 4)..<slash]
  }

  /// Whether `key` can be a state an older version saved under a plugin's bare name: not
  /// a pack's namespace, nothing set aside, no import marker.
  static func isBare(_ key: String) -> Bool {
    !key.hasPrefix("lua:") && !key.hasPrefix("quarantine:") && !key.hasPrefix("import:")
  }

  /// Whether this pack may adopt the states in `states` saved under its plugins' bare
  /// names (by versions that did not keep packs apart). Which pack wrote such a state is
  /// not recorded, so it is adopted only when no other pack has a state on this store: the
  /// store has seen this pack alone since it keeps packs apart. Once adopted, the state is
  /// saved under the pack's own key, and from then on every other pack sees this one and
  /// adopts nothing.
  func mayAdoptBareStates(_ states: [String: String]) -> Bool {
    let own = namespace.dropFirst(4).dropLast()
    return !states.keys.contains { key in Self.owner(ofKey: key).map { $0 != own } ?? false }
  }
}
