import Dwell
import DwellLua
import DwellTesting
import Testing

/// With a scripted check the engine wakes every tick, and between events it reuses the
/// wake-up it searched last: unlocks between ticks must still fall on their exact instants,
/// after every event that changes what accrues.
@Suite struct WakeSearchTests {
  @Test func unlocksBetweenTicksStayExactAcrossEvents() throws {
    let pack = try LuaRulePack(scripts: [("tick.lua", "unlock \"never\" { check = function(u) return false end }")])
    let rules =
      pack.rules + [
        Rule("quiz", when: .screenTime("Quiz", .milliseconds(550))),
        Rule("app", when: .appTime(.milliseconds(1_500))),
        Rule("shop", when: .screenTime("Shop", .milliseconds(250))),
      ]
    let rig = Rig(configuration: .init(rules: rules))
    let engine = try rig.launch()
    engine.record(.active)
    rig.advance(0.3)
    engine.record(.appear(screen: "Quiz", id: ScreenInstance("q1")))
    rig.advance(0.1)
    engine.record(.disappear(id: ScreenInstance("q1")))
    rig.advance(0.2)
    engine.record(.appear(screen: "Quiz", id: ScreenInstance("q2")))  // 0.45 s more: 1.05 s
    rig.advance(1.2)
    engine.record(.appear(screen: "Shop", id: ScreenInstance("s1")))  // at 1.8 s: 2.05 s
    rig.advance(2)
    let unlocks = engine.report().unlocks.mapValues(\.mono.nanoseconds)
    #expect(unlocks["quiz"] == 1_050_000_000)
    #expect(unlocks["app"] == 1_500_000_000)
    #expect(unlocks["shop"] == 2_050_000_000)
    #expect(unlocks["never"] == nil)
  }
}
