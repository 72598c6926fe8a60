import Dwell
import DwellTesting
import Foundation
import Testing

/// Events recorded while the store is still opening (issue #13, item 4): hundreds of
/// launches, each recording at a random moment around the background open, lose nothing.
@Suite struct LaunchBufferTests {
  @Test func eventsRecordedBeforeTheStoreOpensAreAllKept() async throws {
    let store = TemporaryStore()
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(store.path)
    var generator = SystemRandomNumberGenerator()
    let launches = 200
    var before = 0
    for launch in 0..<launches {
      let clock = ManualClock()
      // The store opens on a background queue; the events come 0 to 3 ms after the launch.
      let tracker = Tracker(configuration: configuration, clock: clock, wallClock: ManualWallClock(clock: clock))
      usleep(UInt32.random(in: 0...3_000, using: &generator))
      if tracker.engine == nil { before += 1 }
      tracker.record(.active)
      clock.advance(by: .seconds(1))
      tracker.screenAppeared("S", id: ScreenInstance("s\(launch)"))
      clock.advance(by: .seconds(1))
      tracker.record(.background)
      await tracker.ready()
      tracker.terminate()
    }
    let clock = ManualClock()
    let reader = Tracker(
      configuration: configuration, clock: clock, wallClock: ManualWallClock(clock: clock), scheduler: clock)
    #expect(reader.time(.app) == .seconds(2 * launches), "\(before) launches recorded before the store opened")
    #expect(reader.time(.screen("S")) == .seconds(launches))
    #expect(reader.visits("S") == launches)
    // Some launches must have recorded before the store opened, or the test shows nothing.
    #expect(before > 0)
    print("launch buffer: \(launches) launches, \(before) recorded before the store opened, nothing lost")
  }
}
