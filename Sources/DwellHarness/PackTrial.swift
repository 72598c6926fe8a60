// `dwell rules check`'s trial run: every check and plugin of a pack through a short
// simulated week, so a runtime error shows with its file and line before any user sees it.
internal import Dwell
internal import DwellLua
internal import Foundation

/// A short simulated week of a Lua pack in the simulator: launch, each screen the pack
/// names, a pause and a new session, midnight every day and a time-zone change midweek.
/// What it reports are the errors the pack's checks and plugins raised (each with its
/// `file:line:`, as the sandbox reports it).
///
/// Each call into the pack is bounded by the sandbox's limits (``ScriptLimits``: work per
/// tick, the time backstop per call, memory); the week as a whole, the pack's load for it
/// included, stops after ``timeLimit`` of real time, which it says.
package enum PackTrial {
  /// The real time the whole trial may take.
  package static let timeLimit: Duration = .seconds(20)

  /// What the trial found: the scripts' errors, and whether it stopped at ``timeLimit``.
  package struct Findings: Sendable {
    package var errors: [String] = []
    package var stoppedEarly = false
    package var days = 0
  }

  /// Runs the week for the pack at `path` (a `.lua` file or a folder); a JSON file has no
  /// scripts and finds nothing.
  ///
  /// - Throws: ``Simulator/CommandError`` when the pack does not load.
  package static func run(path: String, limit: Duration = timeLimit) throws -> Findings {
    var findings = Findings()
    guard !path.hasSuffix(".json") else { return findings }
    let start = WallInstant(nanosecondsSince1970: 1_777_885_200_000_000_000)  // Monday 2026-05-04 09:00 UTC
    let options = Simulator.Options(
      rulesPath: path, start: start, timeZone: TimeZone(identifier: "UTC") ?? .current)
    // The trial's time counts from before it loads the pack again: `dwell rules check`
    // takes at most the first load's limit and this one's.
    let began = ContinuousClock.now
    let sim = try Simulator(options: options)
    defer { sim.close() }
    guard let pack = sim.source?.pack else { return findings }
    let screens = Self.screens(pack)
    var days: [[String]] = []
    for day in 0..<7 {
      var commands = screens.flatMap { ["open \"\($0)\"", "wait 20s"] }
      commands += ["bg", "wait 31m", "fg", "wait 1m"]
      if day == 3 { commands += ["tz Asia/Tokyo", "wait 1m"] }
      if day == 5 { commands += ["quit", "launch", "active", "wait 1m"] }
      commands.append("next day")
      days.append(commands)
    }
    for commands in days {
      for command in commands {
        guard ContinuousClock.now - began < limit else {
          findings.stoppedEarly = true
          return finish(findings, sim, pack)
        }
        _ = sim.execute(command)
      }
      findings.days += 1
    }
    return finish(findings, sim, pack)
  }

  private static func finish(_ findings: Findings, _ sim: Simulator, _ pack: LuaRulePack) -> Findings {
    var findings = findings
    var seen = Set<String>()
    for error in pack.diagnostics {
      let text = sim.withinPack(error)
      if seen.insert(text).inserted { findings.errors.append(text) }
    }
    return findings
  }

  /// The screens the pack names: in its rules' conditions, and compared in its scripts
  /// (`screen == "Meditate"`); "Home" when it names none.
  static func screens(_ pack: LuaRulePack) -> [String] {
    var names = pack.rules.flatMap(\.condition.screens)
    let pattern = #"==\s*"([^"\\]{1,64})""#
    for (_, text) in pack.scripts {
      guard let regex = try? NSRegularExpression(pattern: pattern) else { break }
      let range = NSRange(text.startIndex..., in: text)
      for match in regex.matches(in: text, range: range) {
        if let r = Range(match.range(at: 1), in: text) { names.append(String(text[r])) }
      }
    }
    var unique: [String] = []
    for name in names where !unique.contains(name) && !name.contains("\n") { unique.append(name) }
    return unique.isEmpty ? ["Home"] : Array(unique.prefix(40))
  }
}
