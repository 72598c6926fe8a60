import Dwell
import Testing

/// The shared tracker: a second `configureShared` is reported, not silently ignored.
@Suite struct SharedTrackerTests {
  static func inMemory() -> Tracker.Configuration {
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .inMemory
    return configuration
  }

  @Test func configuringTheSharedTrackerTwiceIsReported() {
    let slot = Tracker.SharedSlot(nil)
    let first = Tracker.configureShared(Self.inMemory(), in: slot)
    #expect(first.lastProblem == nil)
    var other = Self.inMemory()
    other.idleTimeout = .seconds(5)
    let second = Tracker.configureShared(other, in: slot)
    #expect(first === second)
    #expect(second.lastProblem == .configuredTooLate)
    #expect(second.configuration.idleTimeout == nil)
  }
}
