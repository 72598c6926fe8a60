import DwellTesting
import Foundation
import Testing

// Engines that keep everything in memory (for `dwell balance`) count exactly as engines on a store.
@testable import Dwell

@Suite struct MemoryEngineTests {
  static let rules = [
    Rule("ten-minutes", when: .appTime(.seconds(600))),
    Rule("lessons-hour", when: .screenTime("Lessons", .seconds(3600))),
    Rule("five-quizzes", when: .visits("Quiz", 5)),
    Rule("three-sessions", when: .sessions(3)),
    Rule("streak", when: .streak(3, minimumPerDay: .seconds(120), screen: "Lessons")),
    Rule("days", when: .activeDays(6, minimumPerDay: nil, screen: nil)),
  ]

  /// Feeds the same generated month to an engine on a store and to one in memory, each on
  /// its own manual clock, and compares every unlock (rule, instants, points) and total.
  @Test func unlocksAndTotalsEqualAnEngineOnAStore() throws {
    var generator = TraceGenerator(days: 30, seed: 11)
    generator.crashes = false
    let events = generator.events().filter {
      switch $0.kind {
      case .launch, .terminate, .crash: return false
      default: return true
      }
    }
    let store = TemporaryStore()
    let configuration = Engine.Configuration(rules: Self.rules)
    let clocks = (ManualClock(), ManualClock())
    let walls = (
      ManualWallClock(clock: clocks.0, wall: generator.start, timeZone: generator.timeZone),
      ManualWallClock(clock: clocks.1, wall: generator.start, timeZone: generator.timeZone)
    )
    let stored = try Engine(
      store: Store(path: store.path), configuration: configuration, clock: clocks.0, wallClock: walls.0,
      scheduler: clocks.0)
    let memory = try Engine(inMemory: configuration, clock: clocks.1, wallClock: walls.1, scheduler: clocks.1)
    let announced = Locked<[String]>([])
    memory.onUnlock { record in announced.withLock { $0.append(record.rule) } }
    for event in events {
      clocks.0.advance(to: event.t)
      clocks.1.advance(to: event.t)
      if case .clock(let wall, let zone) = event.kind {
        for clock in [walls.0, walls.1] {
          if let wall { clock.set(wall) }
          if let zone { clock.set(timeZone: zone) }
        }
      }
      if let lifecycle = event.lifecycleEvent {
        stored.record(lifecycle)
        memory.record(lifecycle)
      }
    }
    #expect(stored.unlocks.count >= 4, "the month should unlock most rules")
    #expect(memory.unlocks == stored.unlocks)
    #expect(Set(announced.withLock { $0 }) == Set(stored.unlocks.keys))
    #expect(memory.time(.app) == stored.time(.app))
    #expect(memory.sessions == stored.sessions)
    #expect(memory.time(.screen("Lessons")) == stored.time(.screen("Lessons")))
    // Nothing waits for a store: no checkpoint timer, nothing pending after a background.
    memory.record(.background)
    #expect(memory.withState { accountant, _ in accountant.hasPendingChanges } == false)
    #expect(memory.periodicCheckpoints == 0)
    #expect(try memory.store.load().app.nanos == 0)
  }
}
