import DwellTesting
import Foundation
import Testing

@testable import Dwell

/// The user's rights (`erase()`, `export(_:)`) and `retryStore()` when the store holding
/// the user's history cannot be used: erase and export never report success while that
/// history stays on disk or is left out; moved-aside damaged stores are erased too.
@Suite struct StoreRightsTests {
  /// A store at `path` holding 90 s of Home from an earlier run.
  static func storeWithHistory(at path: String) throws {
    let sim = TrackerSimulation(configuration: configuration(.file(path)))
    sim.use("Home", for: .seconds(90))
    sim.tracker.terminate()
    #expect(try Store(path: path, readOnly: true).summary().visits == 1)
  }

  static func configuration(_ location: Tracker.StoreLocation) -> Tracker.Configuration {
    var configuration = Tracker.Configuration()
    configuration.storeLocation = location
    return configuration
  }

  /// A store with history that a newer Dwell has migrated (this Dwell leaves it unused).
  static func newerStore() throws -> TemporaryStore {
    let folder = TemporaryStore()
    try storeWithHistory(at: folder.path)
    try Store(path: folder.path).write {
      try $0.execute("INSERT INTO dwell_migrations VALUES('v99-from-the-future', '2030-01-01')")
    }
    return folder
  }

  static func storeUnavailableMessage(_ body: () async throws -> Void) async -> String? {
    do {
      try await body()
    } catch TrackerProblem.storeUnavailable(let message) {
      return message
    } catch {
      Issue.record("expected storeUnavailable, got \(error)")
    }
    return nil
  }

  @Test func eraseThrowsAfterErasingMemoryWhileTheStoreWithTheHistoryIsUnused() async throws {
    let folder = try Self.newerStore()
    let before = try Data(contentsOf: URL(fileURLWithPath: folder.path))
    let sim = TrackerSimulation(configuration: Self.configuration(.file(folder.path)))
    sim.use("Home", for: .seconds(30))
    let message = await Self.storeUnavailableMessage { try await sim.tracker.erase() }
    #expect(message?.contains(folder.path) == true)
    #expect(message?.contains("newer Dwell") == true)
    // What could be erased was: this run's counts.
    #expect(sim.tracker.time(.screen("Home")) == .zero)
    #expect(sim.tracker.visits("Home") == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path)) == before)
  }

  @Test func exportThrowsRatherThanLeaveTheStoredHistoryOut() async throws {
    let folder = try Self.newerStore()
    let sim = TrackerSimulation(configuration: Self.configuration(.file(folder.path)))
    sim.use("Home", for: .seconds(30))
    for format in [ExportFormat.json, .csv] {
      let message = await Self.storeUnavailableMessage { _ = try await sim.tracker.export(format) }
      #expect(message?.contains("incomplete") == true)
      #expect(message?.contains(folder.path) == true)
    }
  }

  @Test func retryStoreIsFalseWhileANewerStoreStaysUnused() throws {
    let folder = try Self.newerStore()
    let before = try Data(contentsOf: URL(fileURLWithPath: folder.path))
    let sim = TrackerSimulation(configuration: Self.configuration(.file(folder.path)))
    sim.use("Home", for: .seconds(30))
    #expect(!sim.tracker.retryStore())
    #expect(sim.tracker.time(.screen("Home")) == .seconds(30))
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path)) == before)
  }

  /// A store that is merely absent (its folder missing, nothing stored) or a configuration
  /// in memory: erase and export work on what was counted.
  @Test(arguments: [true, false])
  func anAbsentStoreIsNoError(inMemory: Bool) async throws {
    let folder = TemporaryStore()
    let location: Tracker.StoreLocation = inMemory ? .inMemory : .file(folder.directory + "/missing/usage.sqlite")
    let sim = TrackerSimulation(configuration: Self.configuration(location))
    sim.use("Home", for: .seconds(30))
    #expect(try await sim.tracker.export(.csv).contains("Home"))
    try await sim.tracker.erase()
    #expect(sim.tracker.time(.screen("Home")) == .zero)
    #expect(sim.tracker.retryStore() == inMemory)
  }

  @Test func eraseRemovesDamagedStoresMovedAside() async throws {
    let folder = TemporaryStore()
    // One from an earlier launch, with the files SQLite keeps beside a database, and a
    // stranger's file that only looks alike.
    let earlier = folder.path + ".corrupt-1700000000"
    try Self.storeWithHistory(at: earlier)
    for suffix in ["-wal", "-shm", "-journal"] { try Data([1]).write(to: URL(fileURLWithPath: earlier + suffix)) }
    let stranger = folder.directory + "/other.sqlite.corrupt-1700000000"
    try Data([1]).write(to: URL(fileURLWithPath: stranger))
    // And one moved aside at this launch.
    try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: folder.path))
    try Data(repeating: 0x42, count: 100).write(to: URL(fileURLWithPath: folder.path + "-wal"))
    let sim = TrackerSimulation(configuration: Self.configuration(.file(folder.path)))
    guard case .storeMovedAside(let aside)? = sim.tracker.lastProblem else {
      Issue.record("expected storeMovedAside, got \(String(describing: sim.tracker.lastProblem))")
      return
    }
    #expect(FileManager.default.fileExists(atPath: aside))
    sim.use("Home", for: .seconds(30))
    try await sim.tracker.erase()
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.directory).sorted()
    #expect(left.allSatisfy { !$0.hasPrefix("usage.sqlite.corrupt-") }, "\(left)")
    #expect(left.contains("other.sqlite.corrupt-1700000000"))
    #expect(try Store(path: folder.path, readOnly: true).summary().visits == 0)
  }
}
