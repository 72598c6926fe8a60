import Dwell
import DwellTesting
import Foundation
import Testing

/// The durability edges of an app's life: the moment after `background`, and processes
/// killed before their first checkpoint.
@Suite struct DurabilityEdgesTests {
  @Test func backgroundIsDurableWhenRecordReturns() throws {
    for _ in 0..<20 {
      let store = TemporaryStore()
      let clock = SystemMonotonicClock()
      let engine = try Engine(store: Store(path: store.path), clock: clock)
      engine.record(.active)
      usleep(30_000)
      engine.record(.background)
      engine.abandon()  // killed the moment record returned: nothing more runs
      let next = try Engine(store: Store(path: store.path), clock: clock)
      #expect(next.time() >= .milliseconds(30), "time before background was lost")
      next.terminate()
    }
  }

  @Test func emptyJournalsOfDeadProcessesAreRemoved() throws {
    let store = TemporaryStore()
    _ = try Store(path: store.path)
    let dead = store.path + "-journal-999999999.42"  // no such process (past pid_max)
    let alive = store.path + "-journal-1.43"  // init is always running
    #expect(FileManager.default.createFile(atPath: dead, contents: Data()))
    #expect(FileManager.default.createFile(atPath: alive, contents: Data()))
    let engine = try Engine(store: Store(path: store.path), clock: ManualClock())
    #expect(!FileManager.default.fileExists(atPath: dead))
    #expect(FileManager.default.fileExists(atPath: alive))
    engine.terminate()
  }
}
