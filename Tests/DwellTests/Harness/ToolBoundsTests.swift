import Foundation
import Testing

// Tools that end: a hostile persona or pack is refused or bounded, never run without end.
@testable import Dwell
@testable import DwellBalance
@testable import DwellLua

@Suite struct ToolBoundsTests {
  /// Sessions all day long with a touch every half second: 48 sessions of a day each,
  /// some 170,000 events a day.
  static let flooding = """
    persona "flood" { share = 1, daily = 1, sessions = 48, sessionLength = 86400, touches = 0.5,
                      screens = { Home = { stay = 86400 } }, start = "Home", churn = 0 }
    """

  @Test func aPersonaWhoseLifeNeverEndsIsRefusedAtAReplaysBound() throws {
    let population = try PersonaFile.parse(Self.flooding, file: "personas.lua")
    let pack = try BalancePack(path: BalanceTests.path("rules/learning"))
    var life = UserLife(index: 0, seed: 1, population: population, days: 3650)
    var sink = Counter()
    life.run(into: &sink)
    #expect(sink.events == UserLife.maximumEvents && life.isCut)
    #expect(sink.days < 3650, "the life stops at the bound, not at its last day")
    // Through the engine, with a bound small enough for a test.
    var run = BalanceRun(pack: pack, population: population, users: 1, days: 3650, threads: 1)
    run.maximumEvents = 5_000
    #expect {
      _ = try run.simulate(user: 0)
    } throws: { error in
      "\(error)".contains("persona 'flood': user 0's life has more than 5000 events")
    }
  }

  struct Counter: LifeSink {
    var events = 0
    var days = 0
    mutating func event(_ kind: TraceEvent.Kind, at t: Int64) { events += 1 }
    mutating func endOfDay(_ day: Int, at t: Int64) { days += 1 }
  }

  /// 20,000 tiers in one achievement: building the list is quick Lua; the host's parsing
  /// of it is one long call.
  static let tiers = """
    local t = {} for i = 1, 20000 do t[i] = { "t" .. i, when = { appSeconds = i }, points = 1 } end
    achievement "many" { tiers = t }
    """

  @Test func theLoadsTimeLimitCountsTheHostsWorkOnALongListOfTiers() throws {
    // The processor time the whole load takes with room to spare, then a time limit of a
    // third of it: the load stops near the limit (in the parsing), not after the last tier. (Thread time:
    // a loaded machine makes the wall-clock limit come sooner, never later.)
    let start = TestEnvironment.threadTime()
    _ = try LuaRulePack(scripts: [("rules.lua", Self.tiers)], limits: ScriptLimits(timeToLoad: .seconds(120)))
    let whole = TestEnvironment.threadTime() - start
    var limits = ScriptLimits()
    limits.timeToLoad = max(whole / 3, .milliseconds(20))
    let begin = TestEnvironment.threadTime()
    #expect {
      _ = try LuaRulePack(scripts: [("rules.lua", Self.tiers)], limits: limits)
    } throws: { error in
      "\(error)".contains("time limit exceeded")
    }
    let stopped = TestEnvironment.threadTime() - begin
    #expect(stopped < whole * 4 / 5, "the whole load took \(whole); limited to \(limits.timeToLoad): \(stopped)")
  }

  @Test func repeatedTiersAreStillFound() throws {
    let text = """
      local t = {} for i = 1, 5000 do t[i] = { "t" .. i, when = { appSeconds = i } } end
      t[5001] = { "t17", when = { appSeconds = 1 } }
      achievement "many" { tiers = t }
      """
    #expect {
      _ = try LuaRulePack(scripts: [("rules.lua", text)])
    } throws: { error in
      "\(error)".contains("tier 't17' is repeated")
    }
  }
}
