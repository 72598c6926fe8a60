import Dwell
import DwellTesting
import Foundation
import Testing

/// A configuration `validate()` refuses still runs: each refused setting at its documented
/// default, bad levels left out, reported once.
@Suite struct ConfigurationRepairTests {
  @Test func aZeroIdleTimeoutRunsWithoutOne() {
    var configuration = Tracker.Configuration()
    configuration.idleTimeout = .zero
    let sim = TrackerSimulation(configuration: configuration)
    sim.use("Home", for: .seconds(30))
    #expect(sim.tracker.time() == .seconds(30))
    #expect(sim.tracker.time(.screen("Home")) == .seconds(30))
  }

  @Test func refusedIntervalsRunAtTheirDefaults() {
    for bad in [Duration.zero, .seconds(-1), .seconds(Int64.min), .seconds(Int64.max)] {
      var configuration = Tracker.Configuration()
      configuration.checkpointInterval = bad
      configuration.sessionTimeout = bad < .zero || bad == .zero ? bad : .minutes(30)
      let sim = TrackerSimulation(configuration: configuration)
      let engine = sim.tracker.engine?.configuration
      #expect(engine?.checkpointInterval == .seconds(2), "\(bad)")
      #expect(engine?.sessionTimeout == .minutes(30), "\(bad)")
    }
  }

  @Test func aRefusedRetentionKeepsEverything() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("dwell-retention-\(UUID()).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(path)
    let first = TrackerSimulation(configuration: configuration)
    first.use("Home", for: .seconds(30))
    first.tracker.terminate()
    for retention in [Duration.seconds(-3600), .seconds(Int64.min)] {
      configuration.visitRetention = retention
      let again = TrackerSimulation(configuration: configuration)
      #expect(again.tracker.visits("Home") == 1, "\(retention)")
      #expect(try again.tracker.engine?.store.visits().count == 1, "\(retention)")
      again.tracker.terminate()
    }
  }

  @Test func badLevelsAreLeftOutAndTheGoodOnesKept() {
    var configuration = Tracker.Configuration()
    configuration.levels = [
      Level("Beginner", points: 0), Level("", points: 5), Level("Beginner", points: 10),
      Level("Minus", points: -50), Level("Huge", points: Int.max), Level("Scholar", points: 100),
    ]
    let sim = TrackerSimulation(configuration: configuration)
    #expect(sim.tracker.engine?.configuration.levels.map(\.name) == ["Beginner", "Scholar"])
    #expect(sim.tracker.level?.level.name == "Beginner")
  }

  @Test func aRefusedConfigurationIsReportedOnceWithEveryProblem() {
    var configuration = Tracker.Configuration()
    configuration.idleTimeout = .zero
    configuration.checkpointInterval = .seconds(-2)
    let reports = Locked<[TrackerProblem]>([])
    let sim = TrackerSimulation(configuration: configuration)
    sim.tracker.onProblem { problem in reports.withLock { $0.append(problem) } }
    sim.use("Home", for: .seconds(10))
    let seen = reports.withLock { $0 }
    #expect(seen.count == 1)
    guard case .invalidConfiguration(let error)? = seen.first else {
      Issue.record("expected invalidConfiguration, got \(seen)")
      return
    }
    #expect(error.problems.count == 2, "\(error)")
  }
}
