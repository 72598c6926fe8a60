// Definitions only while a pack loads, and ids only for definitions that hold (#27 item 3).
import Dwell
import Testing

@testable import DwellLua

@Suite struct DefinitionsAtLoadTests {
  private static let refusal = "defined only while the pack loads"

  /// What a plugin published as a string ("" for anything else).
  private static func text(_ value: HostValue?) -> String {
    if case .string(let text)? = value { return text }
    return ""
  }

  /// `unlock`, `achievement`, `levels` and `plugin` from a check or a plugin's handler: an
  /// error at the script's line, and no rule for the engine.
  @Test(arguments: [
    Hostile.inCheck("unlock \"late\" { when = { sessions = 1 } } return true", refusal),
    Hostile.inCheck("achievement \"late\" { when = { sessions = 1 }, points = 5 } return true", refusal),
    Hostile.inCheck("achievement \"late\" { tiers = { { \"t1\", when = { sessions = 1 } } } } return true", refusal),
    Hostile.inCheck("levels { { \"Late\", 0 } } return true", refusal),
    Hostile.inCheck("plugin \"late\" return true", refusal),
    Hostile.inCheck("local f = unlock \"late\"", refusal),
    Hostile(
      "local p = plugin \"p\"\np.on(\"screen_enter\", function(u)\nunlock \"late\" { when = { sessions = 1 } }\nend)",
      refusal, line: 3),
    Hostile("local p = plugin \"p\"\np.on(\"tick\", function(u)\nplugin \"another\"\nend)", refusal, line: 3),
    Hostile(
      "local p = plugin \"p\"\np.on(\"screen_enter\", function(u)\nlevels { { \"L\", 0 } }\nend)", refusal, line: 3),
  ])
  func definitionsAfterLoadingAreRefusedAtTheirLine(_ hostile: Hostile) throws {
    try hostile.check()
  }

  /// What a plugin defined at load may still do later: `on` an event, which it must name.
  @Test func aPluginDefinedAtLoadStillSubscribesLater() throws {
    try Hostile(
      "local p = plugin \"p\"\nunlock \"bad\" { check = function(u)\np.on(\"nope\", print)\nend }", "unknown event",
      line: 3
    ).check()
  }

  /// A check defining rules under `pcall` every second (no error reaches the host): no rule
  /// is made, so nothing grows and a plugin cannot unlock what it defined.
  @Test func aSwallowedDefinitionAfterLoadingGivesNoIdToUnlock() throws {
    let bad = """
      unlock "bad" { check = function(u)
        for i = 1, 50 do pcall(unlock ("late" .. i), { when = { sessions = 1 } }) end
        pcall(achievement "late-gold", { tiers = { { "t1", when = { sessions = 1 } } } })
        return false
      end }
      local p = plugin "p"
      p.on("screen_enter", function(u)
        for _, id in ipairs { "late1", "late50", "late-gold", "late-gold/t1" } do
          local ok, e = pcall(p.unlock, id)
          p.publish(id, ok and "unlocked" or e)
        end
      end)
      """
    let outcome = try Hostile.run(bad, seconds: 6)
    #expect(outcome.unlocks.isDisjoint(with: ["late1", "late50", "late-gold", "late-gold/t1"]), "\(outcome.unlocks)")
    let said = outcome.pack.published["p"] ?? [:]
    #expect(said.count == 4)
    for (id, value) in said {
      #expect(Self.text(value).contains("not a rule of this pack"), "\(id): \(value)")
    }
    #expect(outcome.pack.rules.map(\.id) == ["bad", "good-check", "good-when"])
  }

  /// Definitions that fail after their id was read (inside `pcall` while loading) claim
  /// nothing: a plugin cannot unlock them, and a later definition may use the id.
  @Test func aDefinitionThatFailsClaimsNoId() throws {
    let bad = """
      pcall(unlock "premium", {})
      pcall(unlock "vip", { when = { sessions = 1 }, title = 5 })
      pcall(achievement "gold", { tiers = { { "t1", when = { sessions = 1 } }, { "t1", when = { sessions = 2 } } } })
      pcall(achievement "pro-upgrade", { when = { sessions = 1 }, points = -1 })
      pcall(achievement "silver", { tiers = { { "t1", when = { sessions = 1 } }, { "t2", when = { nope = 1 } } } })
      unlock "vip" { when = { sessions = 1000 } }
      local p = plugin "p"
      p.on("screen_enter", function(u)
        for _, id in ipairs { "premium", "gold", "gold/t1", "pro-upgrade", "silver", "silver/t1", "vip" } do
          local ok, e = pcall(p.unlock, id)
          p.publish(id, ok and "unlocked" or e)
        end
      end)
      """
    let outcome = try Hostile.run(bad)
    let never: Set = ["premium", "gold", "gold/t1", "pro-upgrade", "silver", "silver/t1"]
    #expect(outcome.unlocks.isDisjoint(with: never), "\(outcome.unlocks)")
    #expect(outcome.unlocks.contains("vip"))  // declared after its failed attempt: the id was free
    let said = outcome.pack.published["p"] ?? [:]
    for id in never {
      #expect(Self.text(said[id]).contains("not a rule of this pack"), "\(id): \(String(describing: said[id]))")
    }
    #expect(outcome.pack.rules.map(\.id).sorted() == ["good-check", "good-when", "vip"])
  }

  /// An achievement with tiers is its tiers: a plugin unlocks `gold/t1`, not `gold`, and the
  /// achievement's own id stays taken.
  @Test func anAchievementWithTiersIsUnlockedTierByTier() throws {
    let bad = """
      achievement "gold" { tiers = { { "t1", when = { sessions = 1000 } } } }
      local p = plugin "p"
      p.on("screen_enter", function(u)
        local ok, e = pcall(p.unlock, "gold")
        p.publish("gold", ok and "unlocked" or e)
        p.unlock("gold/t1")
      end)
      """
    let outcome = try Hostile.run(bad)
    #expect(outcome.unlocks.contains("gold/t1"))
    #expect(!outcome.unlocks.contains("gold"))
    let said = Self.text(outcome.pack.published["p"]?["gold"])
    #expect(
      said.contains("not a rule of this pack, but its tiers are (unlock one, as in p.unlock(\"gold/t1\"))"), "\(said)")
    let again =
      "achievement \"gold\" { tiers = { { \"t1\", when = { sessions = 1 } } } }\nunlock \"gold\" { when = { sessions = 1 } }"
    #expect(throws: RuleError.self) { try LuaRulePack(scripts: [("again.lua", again)]) }
  }
}
