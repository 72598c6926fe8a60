import Dwell
import DwellTesting
import Foundation
import Testing

@Suite struct ReliabilityTests {
  /// A few kill -9 trials of a real engine in a child process (scripts/kill-soak runs hundreds).
  @Test func killedChildrenLoseAtMostTheCheckpointInterval() throws {
    let run = try CommandLineTests.dwell(["kill-soak", "--trials", "3", "--seed", "11"])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("kill-soak: 3 trials, 0 failed"))
  }

  /// Just after midnight, today's time is only projected (no checkpoint since): the
  /// streak counts today already, on the fast path as on the pass over the days.
  @Test func aStreakCountsTodayFromItsFirstSecond() throws {
    let rig = Rig(wall: "2026-05-04T21:59:58Z")  // 23:59:58 in Berlin
    let engine = try rig.launch()
    engine.record(.active)
    rig.advance(1.9)
    engine.record(.interact)  // yesterday is credited and in the rule book's runs
    rig.advance(0.5)  // 00:00:00.4: today's 0.4 s is projected, not credited
    #expect(engine.currentStreak() == 2)
    #expect(engine.longestStreak() == 2)
    #expect(engine.currentStreak(minimumPerDay: .nanoseconds(1)) == 2)
    #expect(engine.longestStreak(minimumPerDay: .nanoseconds(1)) == 2)
  }

  /// Random event sequences: the invariants of the accounting hold on every one.
  @Test(arguments: 1...12)
  func randomEventSequencesKeepTheInvariants(seed: Int) throws {
    var rng = SeededGenerator(seed: UInt64(seed))
    let rig = Rig(configuration: .init(idleTimeout: seed % 3 == 0 ? .seconds(45) : nil))
    var engine = try rig.launch()
    var appears = 0
    let names = ["A", "B", "C", ""]
    for _ in 0..<400 {
      rig.advance(Double.random(in: 0...(seed % 2 == 0 ? 120 : 40_000), using: &rng))
      switch Int.random(in: 0..<12, using: &rng) {
      case 0: engine.record(.active)
      case 1: engine.record(.inactive)
      case 2: engine.record(.background)
      case 3: engine.record(.foreground)
      case 4, 5:
        let id = ScreenInstance(number: UInt.random(in: 0..<4, using: &rng))
        engine.record(.appear(screen: names.randomElement(using: &rng) ?? "A", id: id))
        appears += 1
      case 6, 7: engine.record(.disappear(id: ScreenInstance(number: UInt.random(in: 0..<4, using: &rng))))
      case 8: engine.record(.interact)
      case 9:
        let shift = Int64.random(in: -86_400...86_400, using: &rng) * 1_000_000_000
        let wall = WallInstant(nanosecondsSince1970: rig.wall.now().nanosecondsSince1970 + shift)
        rig.wall.set(wall)
        engine.record(
          .clockChanged(
            wall: wall,
            timeZone: TimeZone(identifier: ["UTC", "Asia/Tokyo", "America/Denver"].randomElement(using: &rng) ?? "UTC"))
        )
      case 10:
        engine.abandon()
        engine = try rig.launch()
      default:
        engine.terminate()
        rig.advance(Double.random(in: 0...4000, using: &rng))
        engine = try rig.launch()
      }
      // The app's streaks come from the rule book's runs; a 1 ns minimum takes the pass
      // over every day instead. Both must agree whatever the clocks did.
      #expect(engine.longestStreak() == engine.longestStreak(minimumPerDay: .nanoseconds(1)))
      #expect(engine.currentStreak() == engine.currentStreak(minimumPerDay: .nanoseconds(1)))
    }
    let report = engine.report()
    let app = report.app
    #expect(app.time >= .zero)
    #expect(app.days.values.reduce(Duration.zero, +) == app.time)
    for (_, screen) in report.screens {
      #expect(screen.time >= .zero)
      #expect(screen.days.values.reduce(Duration.zero, +) == screen.time)
      for (day, time) in screen.days { #expect(time <= (app.days[day] ?? .zero)) }
    }
    let visits = report.screens.values.reduce(0) { $0 + $1.visits }
    #expect(visits <= appears)
  }
}

@Suite struct TwoProcessTests {
  /// An app and its extension write one store at once: no lost updates, no SQLITE_BUSY.
  @Test func twoProcessesShareOneStore() throws {
    let dir = TemporaryStore()
    let outputs = LockedBox<[Subprocess.Result]>([])
    let binary = CommandLineTests.binary.path
    let path = dir.path
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      do {
        let result = try Subprocess.run(binary, ["share-child", path, "1.5"])
        outputs.update { $0.append(result) }
      } catch {
        Issue.record(error)
      }
    }
    var added = 0.0
    #expect(outputs.value.count == 2)
    for result in outputs.value {
      #expect(result.status == 0 && !result.timedOut)
      let parts = result.stdout.split(separator: " ")
      #expect(parts.count == 4 && parts[3].hasPrefix("0"), "errors: \(result.stdout)")
      added += Double(parts.count > 1 ? parts[1] : "0") ?? 0
    }
    let stored = try UsageReport(store: Store(path: dir.path, readOnly: true))
    #expect(added > 2.5)
    #expect(abs(stored.app.time.seconds - added) < 0.001)
    #expect(stored.sessions >= 1)
  }
}

@Suite struct DamagedStoreTests {
  enum Damage: CaseIterable { case truncated, header, pages, empty }

  /// A store damaged on disk: Dwell never crashes; it moves a damaged file aside (never
  /// deletes it) and starts a fresh one, or reports the problem and counts in memory.
  @Test(arguments: Damage.allCases)
  func damagedStoresAreHandled(damage: Damage) throws {
    let dir = TemporaryStore()
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(dir.path)
    do {
      let first = TrackerSimulation(configuration: configuration)
      for i in 0..<300 { first.use("Screen\(i % 40)", for: .seconds(7)) }
      first.tracker.engine?.terminate()
    }
    var bytes = try Data(contentsOf: URL(fileURLWithPath: dir.path))
    switch damage {
    case .truncated: bytes = bytes.prefix(bytes.count / 2)
    case .header: bytes.replaceSubrange(0..<100, with: Data(repeating: 0x7A, count: 100))
    case .pages:
      var rng = SeededGenerator(seed: 5)
      for _ in 0..<8 {
        let page = Int.random(in: 1..<max(2, bytes.count / 4096), using: &rng) * 4096
        if page + 512 <= bytes.count {
          bytes.replaceSubrange(page..<(page + 512), with: Data(repeating: 0xA5, count: 512))
        }
      }
    case .empty: bytes = Data()
    }
    try bytes.write(to: URL(fileURLWithPath: dir.path))
    let damaged = bytes
    let sim = TrackerSimulation(configuration: configuration)
    sim.use("After", for: .seconds(5))
    #expect(sim.tracker.time(.screen("After")) == .seconds(5))
    // An empty file is a new database to SQLite; every other damage is found at open.
    if case .storeMovedAside(let aside)? = sim.tracker.lastProblem {
      #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == damaged)
    } else {
      #expect(damage == .empty, "not moved aside: \(String(describing: sim.tracker.lastProblem))")
    }
  }
}

@Suite struct ConcurrencyTests {
  /// Events from many threads at once and queries while the writer folds: every appear
  /// is counted once, and nothing crashes (run under `--sanitize=thread` too).
  @Test func manyThreadsRecordWhileOthersQuery() async throws {
    let dir = TemporaryStore()
    let engine = try Engine(store: Store(path: dir.path), configuration: .init(checkpointInterval: .milliseconds(5)))
    engine.record(.active)
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<8 {
        group.addTask {
          for i in 0..<2_000 {
            let id = ScreenInstance(number: UInt(thread * 10_000 + i))
            engine.record(.appear(screen: "S\(thread)", id: id))
            engine.record(.disappear(id: id))
          }
        }
      }
      for _ in 0..<2 {
        group.addTask {
          for _ in 0..<500 {
            _ = engine.time(.app, in: .today)
            _ = engine.visits("S1")
            _ = engine.report()
          }
        }
      }
    }
    engine.terminate()
    let report = try UsageReport(store: Store(path: dir.path, readOnly: true))
    #expect(report.screens.values.reduce(0) { $0 + $1.visits } == 16_000)
    #expect(report.screens.count == 8)
  }

  /// Absurd input with defined limits: 100,000 distinct screen names.
  @Test func aHundredThousandScreenNames() throws {
    let sim = TrackerSimulation()
    for i in 0..<100_000 {
      let id = ScreenInstance(number: UInt(i))
      sim.tracker.screenAppeared("Screen \(i) " + String(repeating: "x", count: i % 300), id: id)
      sim.tracker.screenDisappeared(id: id)
    }
    sim.wait(.seconds(1))
    #expect(sim.tracker.report()?.screens.count == 100_000)
    #expect(sim.tracker.report()?.screens.keys.allSatisfy { $0.count <= 200 } == true)
  }
}

@Suite struct WriteFailureTests {
  /// While nothing can be written, Dwell keeps counting in memory (and in the journal),
  /// reports the failure, and writes it all once it can.
  @Test func failedCommitsKeepEverythingAndRetry() throws {
    let rig = Rig(configuration: .init(rules: [Rule("minute", when: .appTime(.seconds(60)))]))
    let engine = try rig.launch()
    let errors = LockedBox(0)
    engine.onError { _ in errors.update { $0 += 1 } }
    engine.record(.active)
    engine.record(.appear(screen: "Home", id: ScreenInstance("h")))
    rig.advance(10)
    try engine.store.simulateWriteFailures(true)
    rig.advance(100)  // folds fail: the unlock is journaled, the counts stay in memory
    engine.record(.disappear(id: ScreenInstance("h")))
    engine.record(.background)  // the background fold fails too
    #expect(errors.value > 0)
    #expect(engine.report().unlocks["minute"] != nil)
    #expect(seconds(engine.report().app.time) == 110)
    try engine.store.simulateWriteFailures(false)
    try engine.commit()
    engine.terminate()
    let stored = try UsageReport(store: Store(path: rig.store.path, readOnly: true))
    #expect(seconds(stored.app.time) == 110)
    #expect(stored.screens["Home"]?.visits == 1)
    #expect(stored.unlocks["minute"] != nil)
  }
}

@Suite struct FailingCommitTests {
  /// A fold that fails at its commit, after it added a new screen, rolls back: the next
  /// fold must not use that screen's id (it once did, and the screen's visits and time
  /// went to a row that did not exist; found by scripts/disk-soak).
  @Test func aRolledBackFoldForgetsTheScreensItAdded() throws {
    let rig = Rig()
    let engine = try rig.launch()
    engine.record(.active)
    try engine.store.simulateFailingCommits(true)
    engine.record(.appear(screen: "Fresh", id: ScreenInstance("f")))
    rig.advance(40)
    engine.record(.disappear(id: ScreenInstance("f")))
    #expect(throws: (any Error).self) { try engine.commit() }
    try engine.store.simulateFailingCommits(false)
    try engine.commit()
    engine.terminate()
    let stored = try UsageReport(store: Store(path: rig.store.path, readOnly: true))
    #expect(stored.screens["Fresh"]?.visits == 1)
    #expect(stored.screens["Fresh"]?.time == .seconds(40))
    #expect(try Store(path: rig.store.path, readOnly: true).visits().map(\.screen) == ["Fresh"])
  }
}

@Suite struct FloodTests {
  /// A writer that cannot keep up (its queue blocked) never lets the hot-path buffer, nor
  /// the visit rows waiting for it, grow past their bounds; every visit is still counted.
  @Test func theEventBufferIsBounded() throws {
    let dir = TemporaryStore()
    let clock = SystemMonotonicClock()
    let scheduler = DispatchScheduler(clock: clock)
    let engine = try Engine(store: Store(path: dir.path), clock: clock, scheduler: scheduler)
    let release = DispatchSemaphore(value: 0)
    scheduler.queue.async { release.wait() }  // the writer is stuck
    engine.record(.active)
    var peak = 0
    for i in 0..<300_000 {
      let id = ScreenInstance(number: UInt(i))
      engine.record(.appear(screen: "S", id: id))
      engine.record(.disappear(id: id))
      if i % 1000 == 0 { peak = max(peak, engine.waitingEvents) }
    }
    release.signal()
    #expect(peak <= Engine.maximumWaitingEvents)
    #expect(engine.visits("S") == 300_000)
    #expect(engine.pendingVisitRecords <= Engine.maximumPendingVisitRecords)
    let dropped = engine.droppedVisitRecords
    #expect(dropped >= 300_000 - Engine.maximumPendingVisitRecords * 2)
    engine.terminate()
    let store = try Store(path: dir.path, readOnly: true)
    #expect(try store.visits().count == 300_000 - dropped)
    #expect(try UsageReport(store: store).screens["S"]?.visits == 300_000)
  }
}
