// A plugin's `p.progress(id, fraction, text)`: the rule's progress in the app's
// `progress(of:)` until it unlocks, clamped and bounded, and only for the pack's own rules.
import Dwell
import DwellLua
import DwellTesting
import Testing

@Suite struct PluginProgressTests {
  static let pack = """
    unlock "ten-sits" { title = "Ten sits", when = { sessions = 1000000 } }
    unlock "other" { check = function(u) return false end }
    local sits = plugin "sits"
    sits.on("screen_enter", function(u, screen)
      if screen == "Sit" then
        sits.state.n = (sits.state.n or 0) + 1
        sits.progress("ten-sits", sits.state.n / 10, sits.state.n .. " of 10 sits")
        sits.progress("other", 7, string.rep("x", 2000))
        if sits.state.n == 10 then sits.unlock("ten-sits") end
      end
      if screen == "Bad" then sits.progress("ten-sit", 0.5) end
      if screen == "NaN" then sits.progress("other", 0/0) end
    end)
    """

  static func tracker() throws -> (TrackerSimulation, LuaRulePack) {
    let sim = TrackerSimulation()
    let pack = try LuaRulePack(scripts: [("pack.lua", Self.pack)])
    try sim.tracker.setRules(pack: pack)
    return (sim, pack)
  }

  @Test func aPluginsProgressIsTheRulesProgressUntilItUnlocks() throws {
    let (sim, _) = try Self.tracker()
    for _ in 0..<4 { sim.use("Sit", for: .seconds(5)) }
    let progress = try #require(sim.tracker.progress(of: "ten-sits"))
    #expect(progress.summary == "4 of 10 sits")
    #expect(abs(progress.fraction - 0.4) < 1e-9)
    #expect(!progress.isUnlocked)
    // Clamped to 1, the text clipped to the message length; still locked: only unlock unlocks.
    let other = try #require(sim.tracker.progress(of: "other"))
    #expect(other.fraction == 1)
    #expect(!other.isUnlocked)
    #expect(other.summary.count <= ScriptLimits().messageLength + 1)
    #expect(other.summary.hasPrefix("xxxx"))
    for _ in 0..<6 { sim.use("Sit", for: .seconds(5)) }
    #expect(sim.tracker.progress(of: "ten-sits")?.isUnlocked == true)
    #expect(sim.tracker.progress(of: "ten-sits")?.fraction == 1)
  }

  @Test(arguments: [
    ("Bad", "pack.lua:11: progress 'ten-sit': not a rule of this pack"),
    ("NaN", "pack.lua:12: progress takes a fraction from 0 to 1, not 0/0"),
  ])
  func aMistakeIsAnErrorAtTheDesignersLine(screen: String, message: String) throws {
    let (sim, pack) = try Self.tracker()
    sim.use(screen, for: .seconds(2))
    let messages = pack.diagnostics.map(\.message)
    #expect(messages.contains { $0.contains(message) }, "\(messages)")
  }
}
