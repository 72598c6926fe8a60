// Scenario expectations about plugins: `expect state PLUGIN.key = VALUE` (its saved
// state) and `expect published PLUGIN.key = VALUE` (what it published).
internal import Dwell
internal import DwellLua
internal import Foundation

extension Expectation {
  static let pluginForms = "expect state PLUGIN.KEY = VALUE, expect published PLUGIN.KEY = VALUE"

  /// Reads `state`/`published` lines: `kind` is the word after `expect`, `line` the whole
  /// line; the value is the text after the first `=` (JSON, or else a string as written).
  static func plugin(_ kind: String, _ line: String) throws(Simulator.CommandError) -> Expectation {
    let afterKind = line.drop { $0 != " " && $0 != "\t" }.drop { $0 == " " || $0 == "\t" }
    let body = afterKind.drop { $0 != " " && $0 != "\t" }.drop { $0 == " " || $0 == "\t" }
    guard let equals = body.firstIndex(of: "=") else {
      throw .init("'\(line)' needs '= VALUE': expect \(kind) streaks.days = 3")
    }
    let path = body[..<equals].trimmingCharacters(in: .whitespaces)
    let value = body[body.index(after: equals)...].trimmingCharacters(in: .whitespaces)
    guard !path.isEmpty, path.contains("."), !value.isEmpty else {
      throw .init("'\(line)' names a plugin and a key, then a value: expect \(kind) streaks.days = 3")
    }
    let expected = (try? JSONParser.parse(value)) ?? .string(value)
    return kind == "state" ? .pluginState(path, expected) : .published(path, expected)
  }

  /// `nil` when a `state`/`published` expectation holds in `sim`, or what was seen instead.
  /// Called under the simulator's lock.
  func pluginFailure(in sim: Simulator, path: String, expected: JSONValue, published: Bool) -> String? {
    guard let pack = sim.source?.pack, !pack.plugins.isEmpty else { return "the rules have no plugins" }
    // The longest plugin name the path starts with (a name may hold a dot).
    guard let plugin = pack.plugins.filter({ path.hasPrefix($0 + ".") }).max(by: { $0.count < $1.count }) else {
      let first = String(path.prefix { $0 != "." })
      return "no plugin '\(first)'\(Spelling.hint(for: first, in: pack.plugins)); plugins: "
        + pack.plugins.joined(separator: ", ")
    }
    let key = String(path.dropFirst(plugin.count + 1))
    let seen: JSONValue?
    if published {
      seen = pack.publishedJSON[plugin]?[key]
    } else {
      do {
        seen = try pack.state(of: plugin).flatMap { Self.member(key, of: $0) }
      } catch {
        return "the state of '\(plugin)' cannot be read: \(error.message)"
      }
    }
    guard let seen else { return published ? "'\(plugin)' published no '\(key)'" : "no '\(key)' in its state" }
    return Self.same(seen, expected) ? nil : seen.rendered()
  }

  /// `key` in `value`: the member of that name, or else a path of members ("best.week").
  private static func member(_ key: String, of value: JSONValue) -> JSONValue? {
    if let direct = value[key] { return direct }
    var current: JSONValue? = value
    for part in key.split(separator: ".", omittingEmptySubsequences: false) {
      current = current?[String(part)]
    }
    return current
  }

  /// Equal as values: numbers by value, objects whatever the order of their members.
  private static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    case (.object(let x), .object(let y)):
      return x.count == y.count && x.allSatisfy { m in y.contains { $0.key == m.key && same($0.value, m.value) } }
    default: return a == b
    }
  }
}
