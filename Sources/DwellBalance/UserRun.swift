// Runs one simulated user's life through a real engine in memory on a manual clock.
package import Dwell
internal import DwellTesting
internal import Foundation

/// Drives one engine through one user's life (a ``LifeSink``): the manual clock moves to
/// each event, the engine's timers fire at their exact instants on the way, and unlocks
/// are read back as the engine announces them.
package struct UserRun: LifeSink {
  /// What the engine announces, and the user's active time, to date each unlock by.
  ///
  /// An engine in memory on a manual clock announces on the simulating thread, inside
  /// `advance` (the unlocks on the way to an event) and `record` (those the event causes),
  /// so an unlock is dated with the active state in force at its instant: no unlock list
  /// is locked, copied and drained twice around every event.
  final class Inbox: Sendable {
    struct Content {
      var active = false
      var activeSince: Int64 = 0
      /// Nanoseconds the app was active before `activeSince`.
      var activeNanos: Int64 = 0
      /// The unlocks so far: rule index, day, active milliseconds before it.
      var unlocks: [(rule: Int, day: Int, activeMs: Int64)] = []
      /// Each earning of a recurring rule (its first is in `unlocks` too): rule index, day.
      var earnings: [(rule: Int, day: Int)] = []
      var notes: [String: Int] = [:]
      /// Points plugins awarded, by plugin.
      var awards: [String: Int] = [:]
      var errors: [String] = []
      /// The rules whose progress a plugin reported (`p.progress`), by index.
      var reported: Set<Int> = []

      /// Nanoseconds the app was active by instant `m`, for `m` since the last change.
      func activeNanos(at m: Int64) -> Int64 { activeNanos + (active ? max(0, m - activeSince) : 0) }
    }
    let content = Locked(Content())
    let ruleIndex: [String: Int]

    init(ruleIndex: [String: Int]) { self.ruleIndex = ruleIndex }

    /// A plugin reported the progress of rule `id`.
    func reported(_ id: String) {
      guard let rule = ruleIndex[id] else { return }
      content.withLock { _ = $0.reported.insert(rule) }
    }

    /// An unlock, or an earning of a recurring rule (one with a period): the first
    /// earning is the rule's unlock, each is an earning.
    func unlocked(_ record: UnlockRecord) {
      guard let rule = ruleIndex[record.rule] else { return }
      let m = record.mono.nanoseconds
      let day = Int(m / UserLife.day)
      content.withLock { content in
        if record.period != nil {
          let first = !content.earnings.contains { $0.rule == rule }
          content.earnings.append((rule, day))
          guard first else { return }
        }
        content.unlocks.append((rule, day, content.activeNanos(at: m) / 1_000_000))
      }
    }
  }

  let clock = ManualClock()
  let wall: ManualWallClock
  let configuration: Engine.Configuration
  let inbox: Inbox
  package private(set) var engine: Engine?
  /// The engine could not start (bad rules): the first error.
  package private(set) var failure: (any Error)?
  /// Whether the app is active, as the inbox knows too (read without its lock).
  private var active = false
  private var usedToday = false
  /// Points at the end of each day, and whether the app was used that day.
  package private(set) var dayEnds: [(points: Int, used: Bool)] = []
  /// The days (0-based) at whose end the progress of the rules not unlocked is read, with
  /// the index of each among the report's checkpoints.
  package var progressDays: [Int: Int] = [:]
  /// The progress read then of each rule earned once and not unlocked yet (as the app's
  /// `progress(of:)` gives it), and whether a plugin reported it.
  package private(set) var progress: [(checkpoint: Int, rule: Int, fraction: Double, reported: Bool)] = []

  init(install: WallInstant, configuration: Engine.Configuration, inbox: Inbox) {
    self.inbox = inbox
    wall = ManualWallClock(clock: clock, wall: install, timeZone: UserLife.utc)
    self.configuration = configuration
  }

  package mutating func event(_ kind: TraceEvent.Kind, at t: Int64) {
    clock.advance(to: MonotonicInstant(nanoseconds: t))
    switch kind {
    case .launch:
      guard engine == nil, failure == nil else { break }
      do {
        let engine = try Engine(inMemory: configuration, clock: clock, wallClock: wall, scheduler: clock)
        let inbox = inbox
        engine.onUnlock { record in inbox.unlocked(record) }
        engine.onNotification { note in
          inbox.content.withLock { $0.notes[note.source + ": " + note.title, default: 0] += 1 }
        }
        self.engine = engine
      } catch {
        failure = error
      }
    case .active:
      if !active {
        active = true
        inbox.content.withLock {
          $0.active = true
          $0.activeSince = t
        }
      }
      usedToday = true
    case .inactive, .background, .terminate:
      if active {
        active = false
        inbox.content.withLock {
          $0.active = false
          $0.activeNanos += t - $0.activeSince
        }
      }
    default: break
    }
    if let lifecycle = TraceEvent(line: 0, t: MonotonicInstant(nanoseconds: t), kind: kind).lifecycleEvent {
      engine?.record(lifecycle)
    }
  }

  package mutating func endOfDay(_ day: Int, at t: Int64) {
    clock.advance(to: MonotonicInstant(nanoseconds: t))
    dayEnds.append((engine?.points ?? 0, usedToday))
    usedToday = false
    if let checkpoint = progressDays[day], let engine { readProgress(engine, checkpoint) }
  }

  /// Notes the progress of every rule earned once that `engine` has not unlocked.
  private mutating func readProgress(_ engine: Engine, _ checkpoint: Int) {
    let reported = inbox.content.withLock { $0.reported }
    for (rule, state) in engine.progress() where rule.every == nil && !state.isUnlocked {
      guard let index = inbox.ruleIndex[rule.id] else { continue }
      progress.append((checkpoint, index, state.fraction, reported.contains(index)))
    }
  }

  /// The unlocks so far: rule index, day, active milliseconds before it.
  package var unlocks: [(rule: Int, day: Int, activeMs: Int64)] { inbox.content.withLock { $0.unlocks } }

  /// The earnings of recurring rules: rule index, day.
  package var earnings: [(rule: Int, day: Int)] { inbox.content.withLock { $0.earnings } }

  /// Points plugins awarded, by plugin.
  package var awards: [String: Int] { inbox.content.withLock { $0.awards } }

  /// Errors the pack's scripts raised.
  package var errors: [String] { inbox.content.withLock { $0.errors } }

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
      install: install.adding(nanoseconds: -offset), configuration: configuration, inbox: Inbox(ruleIndex: [:]))
    for event in events { run.event(event.kind, at: event.t.nanoseconds) }
    if let failure = run.failure { throw failure }
    return run
  }

  /// Active milliseconds over the whole life.
  package var totalActiveMs: Int64 {
    let now = clock.now().nanoseconds
    return inbox.content.withLock { $0.activeNanos(at: now) } / 1_000_000
  }

  /// Notifications posted, by "source: title".
  package var notifications: [String: Int] { inbox.content.withLock { $0.notes } }
}
