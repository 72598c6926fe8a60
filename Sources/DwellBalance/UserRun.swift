// Runs one simulated user's life through a real engine in memory on a manual clock.
package import Dwell
internal import DwellTesting
internal import Foundation

/// Drives one engine through one user's life (a ``LifeSink``): the manual clock moves to
/// each event, the engine's timers fire at their exact instants on the way, and unlocks
/// are read back as the engine announces them.
package struct UserRun: LifeSink {
  /// What the engine announces, collected on the simulating thread.
  final class Inbox: Sendable {
    let unlocks = Locked<[UnlockRecord]>([])
    let notes = Locked<[String: Int]>([:])
    let errors = Locked<[String]>([])
    init() {}
  }

  let clock = ManualClock()
  let wall: ManualWallClock
  let configuration: Engine.Configuration
  let inbox: Inbox
  let ruleIndex: [String: Int]
  package private(set) var engine: Engine?
  /// The engine could not start (bad rules): the first error.
  package private(set) var failure: (any Error)?
  private var active = false
  private var activeSince: Int64 = 0
  /// Nanoseconds the app was active before `activeSince`.
  private var activeNanos: Int64 = 0
  private var usedToday = false
  /// The unlocks so far: rule index, day, active milliseconds before it.
  package private(set) var unlocks: [(rule: Int, day: Int, activeMs: Int64)] = []
  /// Points at the end of each day, and whether the app was used that day.
  package private(set) var dayEnds: [(points: Int, used: Bool)] = []

  init(install: WallInstant, configuration: Engine.Configuration, ruleIndex: [String: Int], inbox: Inbox) {
    self.inbox = inbox
    wall = ManualWallClock(clock: clock, wall: install, timeZone: UserLife.utc)
    self.configuration = configuration
    self.ruleIndex = ruleIndex
  }

  package mutating func event(_ kind: TraceEvent.Kind, at t: Int64) {
    clock.advance(to: MonotonicInstant(nanoseconds: t))
    drain()
    switch kind {
    case .launch:
      guard engine == nil, failure == nil else { break }
      do {
        let engine = try Engine(inMemory: configuration, clock: clock, wallClock: wall, scheduler: clock)
        let inbox = inbox
        engine.onUnlock { record in inbox.unlocks.withLock { $0.append(record) } }
        engine.onNotification { note in inbox.notes.withLock { $0[note.source + ": " + note.title, default: 0] += 1 } }
        self.engine = engine
      } catch {
        failure = error
      }
    case .active:
      if !active {
        active = true
        activeSince = t
      }
      usedToday = true
    case .inactive, .background, .terminate:
      if active {
        active = false
        activeNanos += t - activeSince
      }
    default: break
    }
    if let lifecycle = TraceEvent(line: 0, t: MonotonicInstant(nanoseconds: t), kind: kind).lifecycleEvent {
      engine?.record(lifecycle)
    }
    drain()
  }

  package mutating func endOfDay(_ day: Int, at t: Int64) {
    clock.advance(to: MonotonicInstant(nanoseconds: t))
    drain()
    dayEnds.append((engine?.points ?? 0, usedToday))
    usedToday = false
  }

  /// Nanoseconds the app was active by instant `m`, for `m` since the last event.
  private func activeNanos(at m: Int64) -> Int64 {
    activeNanos + (active ? max(0, m - activeSince) : 0)
  }

  private mutating func drain() {
    // Most events unlock nothing: no copy, no allocation then.
    let fresh = inbox.unlocks.withLock { list -> [UnlockRecord] in
      guard !list.isEmpty else { return [] }
      defer { list = [] }
      return list
    }
    for record in fresh {
      guard let rule = ruleIndex[record.rule] else { continue }
      let m = record.mono.nanoseconds
      unlocks.append((rule, Int(m / UserLife.day), activeNanos(at: m) / 1_000_000))
    }
  }

  /// Feeds a trace (one process: a launch first) to an engine in memory and returns the
  /// run, its engine kept. For benchmarks and tests.
  package static func replay(_ events: [TraceEvent], configuration: Engine.Configuration) throws -> UserRun {
    var install = WallInstant(nanosecondsSince1970: 0)
    var offset: Int64 = 0
    if let first = events.first, case .launch(let wall?, _) = first.kind {
      install = wall
      offset = first.t.nanoseconds
    }
    var run = UserRun(
      install: install.adding(nanoseconds: -offset), configuration: configuration, ruleIndex: [:], inbox: Inbox())
    for event in events { run.event(event.kind, at: event.t.nanoseconds) }
    if let failure = run.failure { throw failure }
    return run
  }

  /// Active milliseconds over the whole life.
  package var totalActiveMs: Int64 { activeNanos(at: clock.now().nanoseconds) / 1_000_000 }

  /// Notifications posted, by "source: title".
  package var notifications: [String: Int] { inbox.notes.withLock { $0 } }
}

/// Collects a user's life as trace events (for `--export-trace` and tests).
package struct TraceSink: LifeSink {
  package private(set) var events: [TraceEvent] = []
  package init() {}
  package mutating func event(_ kind: TraceEvent.Kind, at t: Int64) {
    events.append(TraceEvent(line: events.count + 1, t: MonotonicInstant(nanoseconds: t), kind: kind))
  }
  package mutating func endOfDay(_ day: Int, at t: Int64) {}
}
