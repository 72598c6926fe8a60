// The globals a rule pack sees, and Lua's "attempt to call a nil value (global 'x')" said as
// what it means to a designer: x is not a Dwell helper, and the name they probably meant.
internal import CLuaSandbox
internal import Dwell
internal import Foundation

/// Names a rule pack's scripts can use, for messages about the ones they cannot.
package enum ScriptNames {
  /// Dwell's own helpers (prelude.lua and the rule language).
  package static let helpers = ["minutes", "hours", "days", "unlock", "achievement", "levels", "plugin"]

  /// Lua's globals and libraries the sandbox lets through (the allow-list in the sandbox's C,
  /// `allow-list.c`, which the prelude builds each file's environment from), and `host`.
  package static let lua: [String] = {
    var count = 0
    guard let list = dwell_lua_allow_list(&count) else { return ["host"] }
    return UnsafeBufferPointer(start: list, count: count).flatMap { line -> [String] in
      let library = String(cString: line.library)
      return library == "_G" ? String(cString: line.names).split(separator: " ").map(String.init) : [library]
    } + ["host"]
  }()

  /// Lua's globals the sandbox leaves out (`dwell rules check` warns of each).
  package static let withheld = [
    "io", "os", "debug", "package", "require", "load", "loadfile", "dofile", "loadstring", "collectgarbage", "rawset",
    "coroutine",
  ]

  /// `message` with Lua's "attempt to call a nil value (global 'x')" (or to index one)
  /// replaced by what it means: a name rule packs do not have, and the nearest they do.
  ///
  /// ```
  /// p.lua:1: attempt to call a nil value (global 'minute')
  /// p.lua:1: minute() is not a Dwell helper or a Lua function rule packs have (did you mean minutes()?)
  /// ```
  static func explain(_ message: String) -> String {
    let forms = [("attempt to call a nil value (global '", true), ("attempt to index a nil value (global '", false)]
    for (form, calls) in forms {
      guard let start = message.range(of: form), let end = message[start.upperBound...].range(of: "')") else {
        continue
      }
      let name = String(message[start.upperBound..<end.lowerBound])
      let said: String
      if withheld.contains(name) {
        said = "\(name) is not available in rule packs (sandbox)"
      } else if let near = Spelling.closest(to: name, in: helpers + lua) {
        let shown = helpers.contains(near) || calls ? "\(near)()" : near
        said =
          calls
          ? "\(name)() is not a Dwell helper or a Lua function rule packs have (did you mean \(shown)?)"
          : "\(name) is not defined (did you mean \(shown)?)"
      } else if calls {
        said =
          "\(name)() is not a Dwell helper or a Lua function rule packs have; the helpers are "
          + helpers.joined(separator: ", ")
      } else {
        continue
      }
      return message.replacingCharacters(in: start.lowerBound..<end.upperBound, with: said)
    }
    return message
  }
}
