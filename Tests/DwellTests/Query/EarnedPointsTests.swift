import Dwell
import DwellTesting
import Testing

/// `Tracker.points` counts each earning of a recurring rule, as the report and the export do.
@Suite struct EarnedPointsTests {
  @Test func pointsCountEveryEarning() throws {
    let sim = TrackerSimulation()
    try sim.tracker.setRules([
      Rule("daily", when: .appTime(.minutes(10)), points: 7, every: .day),
      Rule("once", when: .appTime(.minutes(5)), points: 3),
    ])
    sim.tracker.record(.active)
    for day in 0..<3 {
      if day > 0 { sim.nextDay() }
      sim.use("Lessons", for: .minutes(12))
    }
    #expect(sim.tracker.points == 3 + 3 * 7)
  }
}
