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
    let configuration = Engine.Configuration(rules: Self.rules)
    let pair = try Pair(days: 30, seed: 11, stored: configuration, memory: configuration)
    let (stored, memory) = (pair.stored, pair.memory)
    let announced = Locked<[String]>([])
    memory.onUnlock { record in announced.withLock { $0.append(record.rule) } }
    pair.run()
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

  /// Listeners hear the same events, ticks included, at the same instants and with the same
  /// figures from an engine in memory (which goes through every tick on the way to the next
  /// event in one pass) as from an engine on a store (a timer and a pass per tick).
  @Test func listenersHearTheSameTicksAsOnAStore() throws {
    let heard = (Heard(), Heard())
    let pair = try Pair(
      days: 4, seed: 3, stored: Engine.Configuration(rules: Self.rules, listeners: [heard.0]),
      memory: Engine.Configuration(rules: Self.rules, listeners: [heard.1]))
    let (stored, memory) = (pair.stored, pair.memory)
    pair.run()
    let (onStore, inMemory) = (heard.0.log.withLock { $0 }, heard.1.log.withLock { $0 })
    #expect(onStore.filter { $0.contains(" tick ") }.count > 1000, "too few ticks to compare")
    #expect(onStore.count == inMemory.count)
    for (a, b) in zip(onStore, inMemory) where a != b {
      Issue.record("store: \(a)\nmemory: \(b)")
      break
    }
    #expect(memory.points == stored.points)
    #expect(memory.points > 0, "the listener's awards should count")
  }

  /// Logs every event it hears with the figures it is given; awards a point every ten
  /// minutes of app time.
  final class Heard: UsageListener {
    let log = Locked<[String]>([])
    var wantsTicks: Bool { true }
    func restore(states: [String: String]) {}
    func receive(_ event: UsageEvent, usage: UsageFigures) -> [UsageAction] {
      let name = if case .tick = event { "tick" } else { "\(event)" }
      log.withLock {
        $0.append("\(usage.instant.nanoseconds) \(name) \(usage.appSeconds) \(usage.hour) \(usage.currentStreak)")
      }
      guard case .tick = event, Int(usage.appSeconds) % 600 == 0 else { return [] }
      return [.award(points: 1, reason: "ten minutes", source: "heard")]
    }
  }

  /// An engine on a store and one in memory, each on its own manual clock, and the same
  /// generated days (one process) to feed both.
  struct Pair {
    let stored: Engine
    let memory: Engine
    private let store = TemporaryStore()
    private let clocks = (ManualClock(), ManualClock())
    private let walls: (ManualWallClock, ManualWallClock)
    private let events: [TraceEvent]

    init(days: Int, seed: UInt64, stored: Engine.Configuration, memory: Engine.Configuration) throws {
      var generator = TraceGenerator(days: days, seed: seed)
      generator.crashes = false
      events = generator.events().filter {
        switch $0.kind {
        case .launch, .terminate, .crash: return false
        default: return true
        }
      }
      walls = (
        ManualWallClock(clock: clocks.0, wall: generator.start, timeZone: generator.timeZone),
        ManualWallClock(clock: clocks.1, wall: generator.start, timeZone: generator.timeZone)
      )
      self.stored = try Engine(
        store: Store(path: store.path), configuration: stored, clock: clocks.0, wallClock: walls.0,
        scheduler: clocks.0)
      self.memory = try Engine(inMemory: memory, clock: clocks.1, wallClock: walls.1, scheduler: clocks.1)
    }

    /// Feeds every event to both engines.
    func run() {
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
    }
  }
}
