// The plugin events `action` (name, count) and `level_up` (level, points), and a Lua pack's
// conditions on points and level, figures worked out by hand.
import DwellLua
import Testing

@testable import Dwell

@Suite struct PluginEventsTests {
  static let pack = """
    levels { { "Seed", 0 }, { "Sprout", 40 }, { "Bloom", 100 } }
    achievement "first" { points = 50, when = { sessions = 1 } }
    unlock "sprouted" { when = { level = "Sprout" } }
    unlock "hundred" { when = { points = 100 } }

    local log = plugin "log"
    log.on("action", function(u, name, count)
      log.state.actions = (log.state.actions or "") .. name .. "x" .. count .. ";"
      log.publish("actions", log.state.actions)
      if name == "quiz_done" then log.award(count * 10, "quizzes") end
    end)
    log.on("level_up", function(u, level, points)
      log.state.levels = (log.state.levels or "") .. level .. "@" .. points .. ";"
      log.publish("levels", log.state.levels)
    end)
    """

  /// Sprout (40) comes with "first"'s 50 points at the first `active`; then five quizzes
  /// award 50 more: 100, which reaches Bloom and unlocks "hundred" at that instant. Seed
  /// (0) was reached before anything happened: no event says it.
  @Test func actionsAndLevelUpsReachPluginsAndAwardsMeetPointsConditions() throws {
    let pack = try LuaRulePack(scripts: [("pack.lua", Self.pack)])
    let rig = Rig(configuration: RuleSet(pack: pack).configuration(base: .init()))
    let engine = try rig.launch()
    engine.record(.active)
    rig.advance(1)
    engine.record(.action("read", count: 2))
    rig.advance(1)
    engine.record(.action("quiz_done", count: 5))
    rig.advance(1)
    let published = pack.published
    #expect(published["log"]?["actions"] == .string("readx2;quiz_donex5;"))
    #expect(published["log"]?["levels"] == .string("Sprout@50;Bloom@100;"))
    let unlocks = engine.unlocks
    #expect(unlocks["sprouted"]?.mono.nanoseconds == unlocks["first"]?.mono.nanoseconds)
    // "hundred" at the quizzes' instant, 2 s after the first `active`.
    let first = unlocks["first"]?.mono.nanoseconds ?? 0
    #expect(unlocks["hundred"].map { $0.mono.nanoseconds - first } == 2_000_000_000)
    #expect(engine.points == 100)
  }

  @Test func aLevelThePackDoesNotDefineIsRefusedWithItsRule() throws {
    let script = """
      levels { { "Seed", 0 } }
      unlock "bloomed" { when = { level = "Bloom" } }
      """
    let pack = try LuaRulePack(scripts: [("pack.lua", script)])
    var set = RuleSet(pack: pack)
    set.levels = []
    #expect(throws: RuleError.self) { try set.validate() }
    do {
      try set.validate()
    } catch {
      #expect(error.rule == "bloomed")
      #expect(error.message.contains("'Bloom', which is not a level"))
    }
  }
}
