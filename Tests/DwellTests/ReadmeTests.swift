import Dwell
import DwellTesting
import Testing

/// The README's Swift snippets that do not need UIKit or SwiftUI, compiled and run so they
/// cannot rot. (The UIKit and SwiftUI ones live in examples/LearningApp.swiftpm.)
@Suite struct ReadmeTests {
  @Test func askingHowLongAndTesting() async throws {
    var configuration = Tracker.Configuration()
    configuration.rules = [
      Rule("bonus-level", when: .screenTime("Lessons", .minutes(30)), title: "Bonus level"),
      Rule("regular", when: .streak(4)),
    ]
    let sim = TrackerSimulation(configuration: configuration)
    for _ in 0..<4 {
      sim.use("Lessons", for: .minutes(12))
      sim.nextDay()
    }
    #expect(sim.tracker.isUnlocked("regular"))

    let tracker = sim.tracker
    #expect(tracker.time(.screen("Lessons")) == .minutes(48))
    #expect(tracker.time(.app, in: .today) == .zero)
    #expect(tracker.time(.screen("Quiz"), in: .lastDays(7)) == .zero)
    #expect(tracker.currentStreak(.screen("Lessons"), minimumPerDay: .minutes(10)) == 4)
    #expect(tracker.series(.app, lastDays: 30).count == 30)
    #expect(tracker.isUnlocked("bonus-level"))
    #expect(tracker.progress(of: "bonus-level")?.isUnlocked == true)
    #expect(tracker.progress(of: DailyGoal(.screen("Lessons"), .minutes(10))).summary == "0 min of 10 min")
    let exported = tracker.measure("export") { (try? tracker.export(.csv)) ?? "" }
    #expect(exported.hasPrefix("kind,"))
    try tracker.erase()
    #expect(tracker.time() == .zero)
  }
}
