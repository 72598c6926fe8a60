import Dwell
import DwellLua
import DwellTesting
import Testing

/// `u.screen(name)` gives one read-only table per screen, reused across calls: each table
/// reads its own screen's figures of the moment, even when a script keeps it.
@Suite struct ScreenTableTests {
  @Test func screenTablesStayTheirOwnAndCurrent() throws {
    let pack = try LuaRulePack(
      scripts: [
        (
          "screens.lua",
          """
          local kept
          unlock "kept" { check = function(u)
            if not kept then kept = u.screen("Quiz") return false end
            return kept.seconds >= 5 and kept.visits == 2 and kept.today_seconds >= 5
          end }
          unlock "apart" { check = function(u)
            local quiz, shop, none = u.screen("Quiz"), u.screen("Shop"), u.screen("Nowhere")
            return quiz.visits == 2 and shop.visits == 1 and shop.seconds == 0 and none.visits == 0
              and quiz.seconds >= 3 and u.screen("Quiz") == quiz and quiz.hours == nil and quiz[1] == nil
          end }
          unlock "read-only" { check = function(u)
            local quiz = u.screen("Quiz")
            local wrote = pcall(function() quiz.seconds = 1e9 end)
            local reset = pcall(setmetatable, quiz, nil)
            return not wrote and not reset and getmetatable(quiz) == false and quiz.seconds >= 2
          end }
          unlock "many" { check = function(u)
            local zero = 0
            for i = 1, 500 do zero = zero + u.screen("s" .. i).visits end
            return zero == 0 and u.screen("Quiz").seconds >= 4
          end }
          """
        )
      ],
      // What is tested is what the tables read, not how fast: a sanitizer on a loaded
      // machine can take longer than the default 200 ms for "many"'s 500 lookups, and more
      // than the default sustained share of a core.
      limits: ScriptLimits(timePerCall: .seconds(30), timePerTick: .seconds(30), sustainedShare: 1))
    let rig = Rig(configuration: .init(rules: pack.rules))
    let engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "Shop", id: ScreenInstance("s1")))
    engine.record(.disappear(id: ScreenInstance("s1")))
    engine.record(.appear(screen: "Quiz", id: ScreenInstance("q1")))
    engine.record(.disappear(id: ScreenInstance("q1")))
    engine.record(.appear(screen: "Quiz", id: ScreenInstance("q2")))
    rig.advance(20)
    let unlocks = engine.report().unlocks
    #expect(unlocks["kept"]?.mono.seconds == 5)
    #expect(unlocks["apart"]?.mono.seconds == 3)
    #expect(unlocks["read-only"]?.mono.seconds == 2)
    #expect(unlocks["many"]?.mono.seconds == 4)
    #expect(pack.diagnostics.isEmpty)
  }
}
