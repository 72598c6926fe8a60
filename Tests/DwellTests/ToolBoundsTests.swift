import Foundation
import Testing

// Tools that end: a hostile persona or pack is refused or bounded, never run without end.
@testable import Dwell
@testable import DwellLua

@Suite struct ToolBoundsTests {
  /// 20,000 tiers in one achievement: building the list is quick Lua; the host's parsing
  /// of it is one long call.
  static let tiers = """
    local t = {} for i = 1, 20000 do t[i] = { "t" .. i, when = { appSeconds = i }, points = 1 } end
    achievement "many" { tiers = t }
    """

  @Test func theLoadsTimeLimitCountsTheHostsWorkOnALongListOfTiers() throws {
    var limits = ScriptLimits()
    limits.timeToLoad = .milliseconds(300)
    #expect {
      _ = try LuaRulePack(scripts: [("rules.lua", Self.tiers)], limits: limits)
    } throws: { error in
      "\(error)".contains("rules.lua:2:") && "\(error)".contains("time limit exceeded (300 ms)")
    }
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
