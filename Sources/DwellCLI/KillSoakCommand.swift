internal import Dwell
internal import DwellTesting
internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// `dwell kill-soak`: runs the engine in a child process, recording in real time, and
/// kills it with SIGKILL at random moments; after each kill the store must pass the
/// integrity check, reopen, keep all but at most the checkpoint interval of app time, and
/// hold every unlock the child announced.
enum KillSoakCommand {
  static let command = Command(
    name: "kill-soak",
    summary: "Kill -9 the engine at random moments and check what the store kept",
    discussion: """
      Kill -9 trials of the engine in a child process (see Reliability in the docs).
      Prints one line per trial and a summary; exit 1 if any trial lost more than allowed.
      """,
    options: [
      .integer("trials", "N", "Number of trials", default: 20, in: 1...100_000),
      .integer("seed", "N", "Random seed", default: 1, in: 0...Int.max),
      .seconds("checkpoint-interval", "The child's commit interval", default: .milliseconds(250)),
      .value(
        "after-background", "MS,...",
        "Kill at these delays (ms) after the child's record(.background) returns, in turn (e.g. 0,1,2,5);"
          + " nothing may be lost"),
      .seconds(
        "locked-at-launch",
        "Hold the store locked by a second connection (BEGIN EXCLUSIVE) from before the child launches for"
          + " S seconds (past the kill if longer); the child is a Tracker and is killed after 6-9 s",
        default: nil),
    ],
    run: run)

  /// The process `kill-soak` kills.
  static let childCommand = Command(
    name: "kill-child",
    summary: "The process kill-soak kills",
    discussion: "Records in real time into STORE until killed; prints each unlock.",
    arguments: [.init("STORE", "The store to record into")],
    options: [
      .seconds("checkpoint-interval", "Commit interval", default: .seconds(2)),
      .seconds("background-after", "Record background after S seconds, print its instant, and wait", default: nil),
      .flag("tracker", "Record through a Tracker (which opens the store in the background) instead of an Engine"),
    ],
    isHidden: true,
    run: child)

  /// The second process of the two-process store test.
  static let sharingCommand = Command(
    name: "share-child",
    summary: "A second process recording into a shared store",
    discussion: "Records for SECONDS into STORE, which another process uses too, then quits cleanly.",
    arguments: [.init("STORE", "The shared store"), .init("SECONDS", "How long to record")],
    isHidden: true,
    run: sharingChild)

  static let rules = (1...40).map { Rule("t\($0)", when: .appTime(.milliseconds(Int64($0) * 150))) }

  /// The child: records in real time until killed.
  static func child(_ args: Arguments) throws {
    let path = args.argument("STORE")
    // Its declared default is a number of seconds, never off.
    guard let interval = try args.seconds("checkpoint-interval") else {
      throw UsageError("--checkpoint-interval is off")
    }
    let clock = SystemMonotonicClock()
    if args.flag("tracker") { trackerChild(path, interval: interval, clock: clock) }
    let engine = try Engine(
      store: Store(path: path), configuration: .init(checkpointInterval: interval, rules: rules), clock: clock)
    engine.onUnlock { record in
      Terminal.write("unlocked \(record.rule)\n")
    }
    let active = clock.now()
    engine.record(.active, at: active)
    Terminal.write("active \(active.nanoseconds)\n")
    let backgroundAt = try args.seconds("background-after").map { active.nanoseconds + Int64($0.seconds * 1e9) }
    var flip = false
    while true {
      if let backgroundAt, clock.now().nanoseconds >= backgroundAt {
        // What iOS does before it may suspend or kill the app: record background, which
        // is durable when it returns. The parent kills this process moments after the line.
        let instant = clock.now()
        engine.record(.background, at: instant)
        Terminal.write("background \(instant.nanoseconds)\n")
        while true { sleep(1) }
      }
      let id = ScreenInstance(number: flip ? 1 : 2)
      engine.record(.appear(screen: flip ? "A" : "B", id: id))
      engine.record(.disappear(id: ScreenInstance(number: flip ? 2 : 1)))
      flip.toggle()
      usleep(3_000)
    }
  }

  /// The child with `--tracker`: a tracker on the store (which may be locked at launch, so
  /// that it counts on a stand-in), recording in real time until killed.
  private static func trackerChild(_ path: String, interval: Duration, clock: SystemMonotonicClock) -> Never {
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(path)
    configuration.checkpointInterval = interval
    let tracker = Tracker(configuration: configuration)
    let active = clock.now()
    tracker.record(.active)
    Terminal.write("active \(active.nanoseconds)\n")
    var flip = false
    while true {
      tracker.screenAppeared(flip ? "A" : "B", id: ScreenInstance(number: flip ? 1 : 2))
      tracker.screenDisappeared(id: ScreenInstance(number: flip ? 2 : 1))
      flip.toggle()
      usleep(3_000)
    }
  }

  /// A child for the two-process test: records for some seconds into a shared store, then
  /// quits cleanly and prints what it added and how many errors it saw.
  static func sharingChild(_ args: Arguments) throws {
    guard let seconds = Double(args.argument("SECONDS")) else { throw UsageError("SECONDS is a number") }
    let clock = SystemMonotonicClock()
    let engine = try Engine(
      store: Store(path: args.argument("STORE")), configuration: .init(checkpointInterval: .milliseconds(100)),
      clock: clock)
    let errors = LockedCount()
    engine.onError { _ in errors.add() }
    let before = engine.report().app.time
    engine.record(.active)
    let end = clock.now().nanoseconds + Int64(seconds * 1e9)
    var flip = false
    while clock.now().nanoseconds < end {
      engine.record(.appear(screen: flip ? "A" : "B", id: ScreenInstance(number: flip ? 1 : 2)))
      engine.record(.disappear(id: ScreenInstance(number: flip ? 2 : 1)))
      flip.toggle()
      usleep(2_000)
    }
    engine.record(.background)
    engine.terminate()
    let added = engine.report().app.time - before
    Terminal.print("added \(added.seconds) errors \(errors.value)")
  }

  static func run(_ args: Arguments) throws {
    let trials = try args.integer("trials")
    // Its declared default is a number of seconds, never off.
    guard let interval = try args.seconds("checkpoint-interval") else {
      throw UsageError("--checkpoint-interval is off")
    }
    var rng = SeededGenerator(seed: UInt64(try args.integer("seed")))
    let clock = SystemMonotonicClock()
    var worstLoss = 0.0
    var failures = 0
    var announcedTotal = 0
    let delays = try args.value("after-background").map { text -> [Int] in
      let values = text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
      guard !values.isEmpty, values.allSatisfy({ (0...10_000).contains($0) }) else {
        throw UsageError("--after-background takes delays in ms, such as 0,1,2,5")
      }
      return values
    }
    let lockedFor = try args.seconds("locked-at-launch").map(\.seconds)
    if lockedFor != nil, delays != nil { throw UsageError("--locked-at-launch and --after-background go apart") }
    var byDelay: [Int: (trials: Int, losses: Int, worst: Double)] = [:]
    for trial in 1...trials {
      let delay = delays.map { $0[(trial - 1) % $0.count] }
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dwell-kill-\(getpid())-\(trial)")
      try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      let store = directory.appendingPathComponent("usage.sqlite").path
      let process = Process()
      process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
      let lifetime = Double.random(in: lockedFor == nil ? 0.3...2.5 : 6...9, using: &rng)
      process.arguments =
        ["kill-child", store, "--checkpoint-interval", "\(interval.seconds)"]
        + (delay == nil ? [] : ["--background-after", String(format: "%.3f", lifetime / 4)])
        + (lockedFor == nil ? [] : ["--tracker"])
      // A store an app used before (its last fold's marker is cleared at the next open, a
      // write), held by another connection from before the child launches.
      let lock = try lockedFor.map { _ in
        let seed = try Engine(store: Store(path: store), clock: clock)
        seed.terminate()
        return try StoreLock(path: store)
      }
      let pipe = Pipe()
      process.standardOutput = pipe
      process.standardError = FileHandle.nullDevice
      try process.run()
      var early = Data()
      if let delay {
        // Read until the child says record(.background) returned, then wait `delay` ms.
        let handle = pipe.fileHandleForReading
        while !String(decoding: early, as: UTF8.self).contains("background ") || early.last != 0x0A {
          let chunk = handle.availableData
          if chunk.isEmpty { break }
          early += chunk
        }
        usleep(UInt32(delay * 1000))
      } else if let lockedFor, lockedFor < lifetime {
        usleep(UInt32(lockedFor * 1_000_000))
        try lock?.release()  // the child's next retry (within 2 s) hands its count over
        usleep(UInt32((lifetime - lockedFor) * 1_000_000))
      } else {
        usleep(UInt32(lifetime * 1_000_000))
      }
      kill(process.processIdentifier, SIGKILL)
      try lock?.release()
      var killedAt = clock.now().nanoseconds
      process.waitUntilExit()
      let output = String(decoding: early + pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      let lines = output.split(separator: "\n")
      if delay != nil,
        let background = lines.first(where: { $0.hasPrefix("background ") }).flatMap({ Int64($0.dropFirst(11)) })
      {
        killedAt = background  // nothing accrues after background: all of it must be kept
      }
      let activeAt = lines.first { $0.hasPrefix("active ") }.flatMap { Int64($0.dropFirst(7)) }
      let announced = lines.filter { $0.hasPrefix("unlocked ") }.map { String($0.dropFirst(9)) }
      announcedTotal += announced.count
      var problems: [String] = []
      var kept = 0.0
      var elapsed = 0.0
      do {
        let integrity = try Store(path: store, readOnly: true).integrityCheck()
        if integrity != ["ok"] { problems.append("integrity: \(integrity.joined(separator: "; "))") }
        let engine = try Engine(store: Store(path: store), clock: clock)  // the recovery path
        let report = engine.report()
        engine.terminate()
        kept = report.app.time.seconds
        elapsed = activeAt.map { Double(killedAt - $0) / 1e9 } ?? 0
        let missing = announced.filter { report.unlocks[$0] == nil }
        if !missing.isEmpty { problems.append("announced unlocks lost: \(missing.joined(separator: ", "))") }
        let loss = elapsed - kept
        if let delay, activeAt != nil {
          // Killed after record(.background) returned: nothing may be lost (1 ms of rounding).
          var entry = byDelay[delay] ?? (0, 0, 0)
          entry.trials += 1
          entry.worst = max(entry.worst, loss)
          if loss > 0.001 {
            entry.losses += 1
            problems.append(String(format: "lost %.3f s after background", loss))
          }
          if kept > elapsed + 0.001 { problems.append(String(format: "gained %.3f s", kept - elapsed)) }
          byDelay[delay] = entry
          worstLoss = max(worstLoss, loss)
        } else if activeAt != nil {
          worstLoss = max(worstLoss, loss)
          // Allowed: the checkpoint interval, plus the time the child needed to be scheduled.
          if loss > interval.seconds + 0.1 { problems.append(String(format: "lost %.3f s", loss)) }
          if kept > elapsed + 0.05 { problems.append(String(format: "gained %.3f s", kept - elapsed)) }
        }
      } catch {
        problems.append("\(error)")
      }
      if !problems.isEmpty { failures += 1 }
      Terminal.print(
        String(
          format: "trial %d: killed after %.2f s, active %.3f s, kept %.3f s, %d unlocks announced%@", trial,
          lifetime, elapsed, kept, announced.count,
          problems.isEmpty ? "" : " — FAIL: " + problems.joined(separator: "; ")
        ))
    }
    for (delay, entry) in byDelay.sorted(by: { $0.key < $1.key }) {
      Terminal.print(
        String(
          format: "kill-soak: killed %d ms after background: %d trials, %d lost time, worst loss %.4f s", delay,
          entry.trials, entry.losses, max(0, entry.worst)))
    }
    Terminal.print(
      String(
        format: "kill-soak: %d trials, %d failed, worst loss %.3f s (allowed %.3f s), %d announced unlocks checked",
        trials, failures, worstLoss, delays == nil ? interval.seconds + 0.1 : 0.001, announcedTotal))
    if failures > 0 { throw CommandFailure("\(failures) kill trial(s) failed") }
  }
}
