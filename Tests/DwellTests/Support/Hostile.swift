// A harness for hostile rule packs: a bad file beside a good one, run on a manual clock.
import Dwell
import DwellTesting
import Foundation
import Testing

@testable import DwellLua

/// One hostile script and what the sandbox must say about it.
struct Hostile: CustomTestStringConvertible, Sendable {
  /// The body of the bad file (line 1 is its first line).
  var script: String
  /// Words the problem must contain (the limit), and the line it must name.
  var limit: String
  var line: Int
  var testDescription: String { "\(limit) @\(line): \(script.prefix(60))" }

  init(_ script: String, _ limit: String, line: Int = 1) {
    self.script = script
    self.limit = limit
    self.line = line
  }

  /// A check whose body (line 2 of bad.lua) misbehaves.
  static func inCheck(_ body: String, _ limit: String, line: Int = 2) -> Hostile {
    Hostile("unlock \"bad\" { check = function(u)\n\(body)\nend }", limit, line: line)
  }

  /// Limits small enough that each case takes well under a second. The time limits are a
  /// backstop far above what the instruction budget takes, so a case that expects the budget
  /// sees the budget even on a loaded machine: scaled by the build's slowdown, since a
  /// sanitizer slows the host functions a budget charges (print's Swift string work) far
  /// more than the Lua instructions it counts (under ThreadSanitizer on a loaded machine, a
  /// check printing a long string in a loop took more than 600 ms to spend its budget).
  static let limits = ScriptLimits(
    memory: 4 << 20, instructionsPerCall: 200_000, instructionsPerTick: 1_000_000,
    timePerCall: .milliseconds(600) * Int(TestEnvironment.slowdown),
    timePerTick: .milliseconds(800) * Int(TestEnvironment.slowdown), instructionsToLoad: 2_000_000)

  /// The same with tight time limits, for the cases that expect a time limit.
  static let timeLimits = ScriptLimits(
    memory: 4 << 20, instructionsPerCall: 200_000, instructionsPerTick: 1_000_000, timePerCall: .milliseconds(100),
    timePerTick: .milliseconds(250), instructionsToLoad: 2_000_000)

  static let good = """
    unlock "good-check" { check = function(u) return u.app.seconds >= 2 end }
    unlock "good-when" { when = { appSeconds = 3 } }
    """

  /// What running the pack showed.
  struct Outcome {
    var pack: LuaRulePack
    var engine: Engine
    var unlocks: Set<String>
    var slowestTick: Duration
    var problems: [String]
  }

  /// Loads `bad.lua` beside `good.lua`, runs `seconds` ticks with a screen visit in each, and
  /// checks what every hostile case must show: the host unaffected, the good rules
  /// unlocking, memory under 64 MB and each tick well under a second of processor time
  /// (the engine works on this thread; ten seconds under a sanitizer).
  @discardableResult
  static func run(
    _ bad: String, seconds: Int = 4, limits: ScriptLimits = limits, host: (LuaRulePack) -> Void = { _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Outcome {
    let pack = try LuaRulePack(scripts: [("bad.lua", bad), ("good.lua", good)], limits: limits)
    host(pack)
    let rig = Rig(configuration: .init(rules: pack.rules, listeners: pack.plugins.isEmpty ? [] : [pack]))
    let engine = try rig.launch()
    var slowest = Duration.zero
    let start = TestEnvironment.threadTime()
    engine.record(.active)
    for second in 0..<seconds {
      let tick = TestEnvironment.threadTime()
      engine.record(.appear(screen: "S\(second)", id: ScreenInstance("\(second)")))
      rig.advance(1)
      slowest = max(slowest, TestEnvironment.threadTime() - tick)
    }
    slowest = max(slowest, (TestEnvironment.threadTime() - start) / max(seconds, 1))
    let unlocks = Set(engine.report().unlocks.keys)
    #expect(
      unlocks.isSuperset(of: ["good-check", "good-when"]), "good rules: \(unlocks)", sourceLocation: sourceLocation)
    #expect(slowest < .seconds(TestEnvironment.slowdown), "a tick took \(slowest)", sourceLocation: sourceLocation)
    #expect(pack.runtime.memoryPeak < 64 << 20, sourceLocation: sourceLocation)
    return Outcome(
      pack: pack, engine: engine, unlocks: unlocks, slowestTick: slowest, problems: pack.diagnostics.map(\.description))
  }

  /// Runs the case and checks a problem names `bad.lua`, the line and the limit.
  func check(sourceLocation: SourceLocation = #_sourceLocation) throws {
    let limits = limit.hasPrefix("time limit") ? Hostile.timeLimits : Hostile.limits
    let outcome = try Hostile.run(script, limits: limits, sourceLocation: sourceLocation)
    #expect(!outcome.unlocks.contains("bad"), sourceLocation: sourceLocation)
    let named = outcome.problems.contains { $0.contains("bad.lua:\(line):") && $0.contains(limit) }
    #expect(named, "problems: \(outcome.problems)", sourceLocation: sourceLocation)
  }
}
