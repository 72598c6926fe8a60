import DwellTesting
import Testing

@testable import Dwell

/// The engine's pauses (Accounting.md, "Pauses"): a visible instance stops accruing without
/// ending its visit.
@Suite struct ScreenPauseTests {
  func figures(_ engine: Engine, _ name: String) -> (Double, Int) {
    let screen = engine.report().screens[name]
    return (seconds(screen?.time ?? .zero), screen?.visits ?? 0)
  }

  @Test func aPausedInstanceStaysVisibleWithoutAccruingAndResumingIsNotAVisit() throws {
    let rig = Rig()
    let engine = try rig.launch()
    let a = ScreenInstance("a")
    engine.record(.active)
    engine.record(.appear(screen: "Lessons", id: a))
    rig.advance(10)
    engine.record(.pause(id: a))
    engine.record(.pause(id: a))  // twice: nothing more
    rig.advance(20)
    engine.record(.appear(screen: "Lessons", id: a))  // still visible: ignored, still paused
    rig.advance(5)
    engine.record(.resume(id: a))
    engine.record(.resume(id: a))
    rig.advance(3)
    #expect(figures(engine, "Lessons") == (13, 1))
    #expect(seconds(engine.report().app.time) == 38)
    engine.record(.pause(id: a))
    engine.record(.disappear(id: a))  // ends the paused visit
    engine.record(.resume(id: a))  // not visible: ignored
    engine.record(.pause(id: ScreenInstance("never")))
    rig.advance(4)
    #expect(figures(engine, "Lessons") == (13, 1))
    engine.record(.appear(screen: "Lessons", id: a))
    rig.advance(1)
    #expect(figures(engine, "Lessons") == (14, 2))
  }

  @Test func aNameAccruesWhileOneOfItsInstancesIsVisibleAndNotPaused() throws {
    let rig = Rig()
    let engine = try rig.launch()
    let left = ScreenInstance("left")
    let right = ScreenInstance("right")
    engine.record(.active)
    engine.record(.appear(screen: "Notes", id: left))
    engine.record(.appear(screen: "Notes", id: right))
    rig.advance(10)
    engine.record(.pause(id: left))  // the other window still shows Notes
    rig.advance(10)
    engine.record(.pause(id: right))
    rig.advance(10)
    engine.record(.resume(id: left))
    rig.advance(1)
    #expect(figures(engine, "Notes") == (21, 2))
  }

  @Test func pausesSurviveATakeOverByAnotherEngine() throws {
    let rig = Rig()
    let engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "A", id: ScreenInstance("a")))
    engine.record(.appear(screen: "B", id: ScreenInstance("b")))
    engine.record(.pause(id: ScreenInstance("b")))
    let live = engine.liveState()
    #expect(live.visible.map(\.paused) == [false, true])
    let other = try Rig().launch()
    other.adopt(active: live.active, visible: live.visible)
    rig.advance(5)
    other.process()
    #expect(other.liveState().visible.map(\.paused) == [false, true])
  }
}
