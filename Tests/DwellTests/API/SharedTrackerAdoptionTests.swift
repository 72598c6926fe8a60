import DwellTesting
import Foundation
import Synchronization
import Testing

@testable import Dwell

/// `Tracker.shared` used before `configureShared`: the shared tracker takes the late
/// configuration and its store adopts what was counted in the default one (#27 item 4).
@Suite struct SharedTrackerAdoptionTests {
  let folder = TemporaryStore()
  let clock = ManualClock()

  func make() -> Tracker.Maker {
    let clock = clock
    return { Tracker(configuration: $0, clock: clock, wallClock: ManualWallClock(clock: clock), scheduler: clock) }
  }

  func file(_ name: String) -> Tracker.Configuration {
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(folder.directory + "/" + name)
    return configuration
  }

  func reopened(_ name: String) -> Tracker { make()(file(name)) }

  @Test func aLateConfigurationAdoptsWhatTheDefaultStoreCounted() {
    let slot = Tracker.SharedSlot(nil)
    let first = Tracker.shared(in: slot, defaults: file("default.sqlite"), make: make())
    first.record(.active)
    first.record(.appear(screen: "Home", id: ScreenInstance("home")))
    clock.advance(by: .seconds(30))
    first.record(.disappear(id: ScreenInstance("home")))
    first.record(.appear(screen: "Lessons", id: ScreenInstance("lessons")))
    clock.advance(by: .seconds(10))
    var configured = file("group.sqlite")
    configured.rules = [Rule("home-twice", when: .visits("Home", 2))]
    let second = Tracker.configureShared(configured, in: slot, make: make())
    #expect(second === first)
    #expect(second.lastProblem == .configuredTooLate)
    #expect(Tracker.shared(in: slot) === first)
    // One history: the configured store holds what was counted before, the rules count it.
    #expect(first.engine?.store.path == folder.directory + "/group.sqlite")
    #expect(first.visits("Home") == 1)
    #expect(first.visits("Lessons") == 1)
    #expect(first.sessions == 1)
    clock.advance(by: .seconds(5))
    first.record(.disappear(id: ScreenInstance("lessons")))
    first.record(.appear(screen: "Home", id: ScreenInstance("home")))
    #expect(first.isUnlocked("home-twice"))
    clock.advance(by: .seconds(5))
    first.terminate()
    let group = reopened("group.sqlite")
    #expect(group.time() == .seconds(50))
    #expect(group.time(.screen("Lessons")) == .seconds(15))
    #expect(group.visits("Home") == 2)
    #expect(group.sessions == 1)
    #expect(group.isUnlocked("home-twice"))
    // Nothing left behind to count twice or split the history.
    let leftover = reopened("default.sqlite")
    #expect(leftover.time() == .zero)
    #expect(leftover.visits("Home") == 0)
  }

  @Test func aSecondConfigurationIsNotAdopted() {
    let slot = Tracker.SharedSlot(nil)
    let first = Tracker.shared(in: slot, defaults: file("default.sqlite"), make: make())
    _ = Tracker.configureShared(file("one.sqlite"), in: slot, make: make())
    _ = Tracker.configureShared(file("two.sqlite"), in: slot, make: make())
    #expect(first.engine?.store.path == folder.directory + "/one.sqlite")
    #expect(first.lastProblem == .configuredTooLate)
  }

  /// A late configuration arriving while an erase or a store retry replaces the engine:
  /// its store is adopted once that is done, not skipped (the history stayed split).
  @Test func aLateConfigurationWaitsForAReplacementUnderWay() async throws {
    let slot = Tracker.SharedSlot(nil)
    let first = Tracker.shared(in: slot, defaults: file("default.sqlite"), make: make())
    first.record(.active)
    clock.advance(by: .seconds(20))
    let holding = Atomic<Int>(0)
    let release = DispatchSemaphore(value: 0)
    // Both block, so each runs on a thread of its own, off the tests' cooperative pool.
    Thread {
      _ = first.replacingEngine {
        holding.store(1, ordering: .relaxed)
        release.wait()
      }
    }.start()
    while holding.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(1)) }
    let configured = Atomic<Int>(0)
    let make = make()
    let late = file("group.sqlite")
    Thread {
      _ = Tracker.configureShared(late, in: slot, make: make)
      configured.store(1, ordering: .relaxed)
    }.start()
    try await Task.sleep(for: .milliseconds(100))
    #expect(configured.load(ordering: .relaxed) == 0, "the move did not wait for the replacement under way")
    release.signal()
    for _ in 0..<2_000 where configured.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(5)) }
    #expect(first.engine?.store.path == folder.directory + "/group.sqlite")
    #expect(first.time() == .seconds(20))
    first.terminate()
  }
}
