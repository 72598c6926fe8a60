internal import Dwell
internal import DwellLua
internal import Foundation

/// One `expect` line of a scenario, and how it is checked against the simulation: nothing
/// when it holds, or what was seen instead.
enum Expectation: Sendable {
  case unlocked(String, at: String?)
  case locked(String)
  case points(Int)
  case level(String)
  case time(screen: String, Duration)
  case notified(String)
  case sessions(Int)
  /// `expect state PLUGIN.KEY = VALUE` and `expect published PLUGIN.KEY = VALUE` (``Expectation+Plugins``).
  case pluginState(String, JSONValue)
  case published(String, JSONValue)
  /// `expect count ACTION N [today]` (Expectation+Actions.swift, as the two below).
  case count(action: String, Int, today: Bool)
  /// `expect earned RULE [N times | for PERIOD]`: `times` nil and `period` nil is "at least once".
  case earned(String, times: Int?, period: String?)
  /// `expect not earned RULE [for PERIOD]`.
  case notEarned(String, period: String?)
  /// The invariants every pack keeps (see ``Invariants``): what `dwell test --fuzz` checks.
  case invariants

  static let forms =
    "expect unlocked RULE [at HH:MM[:SS]], expect locked RULE, expect points N, expect level NAME, "
    + "expect time SCREEN DURATION, expect notified \"TEXT\", expect sessions N, " + actionForms + ", " + pluginForms
    + ", expect invariants"

  /// The words after `expect`.
  static let kinds = [
    "unlocked", "locked", "points", "level", "time", "notified", "sessions", "count", "earned", "not", "state",
    "published", "invariants",
  ]

  init(_ line: String) throws(Simulator.CommandError) {
    let words = try Simulator.words(line).dropFirst().map { $0 }
    guard let kind = words.first?.lowercased() else { throw .init("expect what? \(Self.forms)") }
    let rest = Array(words.dropFirst())
    switch kind {
    case "unlocked" where rest.count == 1: self = .unlocked(rest[0], at: nil)
    case "unlocked" where rest.count >= 3 && rest[1] == "at" && rest.count <= 4:
      let at = rest[2...].joined(separator: " ")
      guard Self.instantPattern(at) else {
        throw .init("'at' takes a local time HH:MM or HH:MM:SS, or YYYY-MM-DD HH:MM[:SS], not '\(at)'")
      }
      self = .unlocked(rest[0], at: at)
    case "locked" where rest.count == 1: self = .locked(rest[0])
    case "points" where rest.count == 1:
      guard let n = Int(rest[0]) else { throw .init("expect points takes a whole number, not '\(rest[0])'") }
      self = .points(n)
    case "sessions" where rest.count == 1:
      guard let n = Int(rest[0]) else { throw .init("expect sessions takes a whole number, not '\(rest[0])'") }
      self = .sessions(n)
    case "level" where !rest.isEmpty: self = .level(rest.joined(separator: " "))
    case "time" where rest.count >= 2:
      self = .time(screen: rest.dropLast().joined(separator: " "), try SimDuration.parse(rest[rest.count - 1]))
    case "notified" where !rest.isEmpty: self = .notified(rest.joined(separator: " "))
    case "state", "published": self = try Self.plugin(kind, line.trimmingCharacters(in: .whitespaces))
    case "count", "earned", "not": self = try Self.actionExpectation(kind, rest, line: line)
    case "invariants" where rest.isEmpty: self = .invariants
    default:
      let hint = Self.kinds.contains(kind) ? "" : Spelling.hint(for: kind, in: Self.kinds)
      throw .init("'\(line)' is not an expectation\(hint): \(Self.forms)")
    }
  }

  private static func instantPattern(_ text: String) -> Bool {
    text.range(of: #"^(\d{4}-\d{2}-\d{2} )?\d{2}:\d{2}(:\d{2})?$"#, options: .regularExpression) != nil
  }

  /// `nil` when the expectation holds in `sim` now, or what was seen instead.
  func failure(in sim: Simulator) -> String? {
    sim.lock.withLock {
      let report = sim.report()
      let rules = sim.progress()
      func known(_ id: String) -> String? {
        guard !rules.contains(where: { $0.rule.id == id }) else { return nil }
        return "the pack has no rule '\(id)'\(Spelling.hint(for: id, in: rules.map(\.rule.id)))"
      }
      switch self {
      case .count, .earned, .notEarned: return actionFailure(sim, report, rules)
      case .unlocked(let id, let at):
        if let unknown = known(id) { return unknown }
        guard let record = report?.unlocks[id] else {
          let progress = rules.first { $0.rule.id == id }?.progress
          return "locked (\(progress?.summary ?? "no progress"))"
        }
        guard let at else { return nil }
        let local = sim.local(record.wall)
        let seen = at.count > 8 ? "\(local.date) \(local.time)" : local.time
        let wanted = at.filter { $0 == ":" }.count == 1 ? at + ":00" : at
        return seen == wanted ? nil : "unlocked at \(local.date) \(local.time)"
      case .locked(let id):
        if let unknown = known(id) { return unknown }
        guard let record = report?.unlocks[id] else { return nil }
        let local = sim.local(record.wall)
        return "unlocked at \(local.date) \(local.time)"
      case .points(let points):
        let seen = report?.points ?? 0
        return seen == points ? nil : "\(seen) points"
      case .sessions(let sessions):
        let seen = report?.sessions ?? 0
        return seen == sessions ? nil : "\(seen) sessions"
      case .level(let name):
        let levels = sim.source?.pack?.levels ?? []
        guard !levels.isEmpty else { return "the pack defines no levels" }
        guard levels.contains(where: { $0.name == name }) else {
          let names = levels.map(\.name)
          return "the pack has no level '\(name)'\(Spelling.hint(for: name, in: names)); its levels: "
            + names.joined(separator: ", ")
        }
        let seen = Level.reached(report?.points ?? 0, in: levels)?.level.name
        return seen == name ? nil : "level \(seen ?? "none") with \(report?.points ?? 0) points"
      case .time(let screen, let duration):
        let seen = report?.screens[screen]?.time ?? .zero
        if abs((seen - duration).seconds) < 0.001 { return nil }
        let names = report?.screens.keys.sorted() ?? []
        let hint = seen == .zero ? Spelling.hint(for: screen, in: names) : ""
        return "\(SimDuration.words(seen)) (\(String(format: "%.3f", seen.seconds)) s) in \(screen)\(hint)"
      case .notified(let text):
        let seen = sim.notifications
        if seen.contains(where: { $0 == text || $0.hasPrefix(text + ": ") }) { return nil }
        return seen.isEmpty ? "no notifications" : "only " + seen.map { "\"\($0)\"" }.joined(separator: ", ")
      case .pluginState(let path, let value):
        return pluginFailure(in: sim, path: path, expected: value, published: false)
      case .published(let path, let value):
        return pluginFailure(in: sim, path: path, expected: value, published: true)
      case .invariants:
        return Invariants.breach(in: sim)
      }
    }
  }
}
