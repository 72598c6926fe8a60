internal import Dwell
internal import DwellTesting
internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// `dwell disk-soak DIR`: a store on a small file system that fills up and frees again.
///
/// Each round fills the file system to the last byte with a filler file, records hours of
/// simulated use (thousands of visits, so folds and journal writes fail with "disk full"),
/// checks that the engine kept counting in memory, frees the space, and checks that the
/// next fold wrote everything: the store's totals equal the engine's, to the nanosecond,
/// and the store passes the integrity check. `scripts/disk-soak` runs it on a tiny tmpfs.
enum DiskSoakCommand {
  static let command = Command(
    name: "disk-soak",
    summary: "Fill the disk under a recording store and check that nothing is lost",
    discussion: """
      Fills the file system holding DIR (use a small tmpfs: see scripts/disk-soak), records
      while nothing can be written, frees the space, and checks that nothing was lost.
      """,
    arguments: [.init("DIR", "A folder on a small file system of its own")],
    options: [
      .integer("rounds", "N", "Rounds of filling and freeing", default: 10, in: 1...10_000),
      .integer("seed", "N", "Random seed", default: 1, in: 0...Int.max),
    ],
    run: run)

  static func run(_ args: Arguments) throws {
    let directory = args.argument("DIR")
    let rounds = try args.integer("rounds")
    var rng = SeededGenerator(seed: UInt64(try args.integer("seed")))
    let storePath = directory + "/usage.sqlite"
    let fillerPath = directory + "/filler"
    for file in [storePath, fillerPath] { try? FileManager.default.removeItem(atPath: file) }

    let clock = ManualClock()
    let engine = try Engine(
      store: Store(path: storePath), clock: clock, wallClock: ManualWallClock(clock: clock), scheduler: clock)
    let errors = LockedCount()
    engine.onError { _ in errors.add() }
    engine.record(.active)
    var failures = 0
    var visits = 0
    for round in 1...rounds {
      let errorsBefore = errors.value
      let filled = fill(fillerPath)
      // Hours of use with the disk full: visits to many screens, folds every 30 s.
      let steps = Int.random(in: 500...3000, using: &rng)
      for step in 0..<steps {
        let id = ScreenInstance(number: UInt(visits))
        engine.record(.appear(screen: "Screen \(Int.random(in: 0..<200, using: &rng))", id: id))
        clock.advance(by: .milliseconds(Int64.random(in: 200...4000, using: &rng)))
        engine.record(.disappear(id: id))
        visits += 1
        if step % 500 == 0 { clock.advance(by: .seconds(31)) }
      }
      let inMemory = engine.report()
      let failedWrites = errors.value - errorsBefore
      // Free the space; the next fold writes everything that waited.
      try? FileManager.default.removeItem(atPath: fillerPath)
      var problems: [String] = []
      do {
        try engine.commit()
        let store = try Store(path: storePath, readOnly: true)
        let integrity = try store.integrityCheck()
        if integrity != ["ok"] { problems.append("integrity: \(integrity.joined(separator: "; "))") }
        let stored = try UsageReport(store: store)
        if stored.app.time != inMemory.app.time {
          problems.append("app time stored \(stored.app.time) in memory \(inMemory.app.time)")
        }
        let storedVisits = stored.screens.values.reduce(0) { $0 + $1.visits }
        if storedVisits != visits { problems.append("visits stored \(storedVisits), recorded \(visits)") }
        let rows = try store.visits().count
        if rows != visits { problems.append("visit rows \(rows), recorded \(visits)") }
      } catch {
        problems.append("after freeing the disk: \(error)")
      }
      if filled > 0 && failedWrites == 0 { problems.append("the disk was full but no write failed") }
      if !problems.isEmpty { failures += 1 }
      Terminal.print(
        "round \(round): filled \(filled / 1024) KiB, \(steps) visits, \(failedWrites) failed writes, "
          + (problems.isEmpty ? "nothing lost" : "FAILED: " + problems.joined(separator: "; ")))
    }
    engine.terminate()
    Terminal.print(
      "disk-soak: \(rounds) rounds, \(visits) visits, \(errors.value) failed writes survived, \(failures) failed")
    if failures > 0 { throw CommandFailure("\(failures) of \(rounds) rounds lost data") }
  }

  /// Writes a filler file until the file system is full; returns its size.
  private static func fill(_ path: String) -> Int {
    guard let file = fopen(path, "w") else { return 0 }
    defer { fclose(file) }
    let chunk = [UInt8](repeating: 0x5A, count: 4096)
    var written = 0
    while true {
      let count = chunk.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
      written += count
      if count < chunk.count || fflush(file) != 0 { break }
    }
    // Then single bytes, to leave nothing at all.
    var byte: UInt8 = 0x5A
    while fwrite(&byte, 1, 1, file) == 1, fflush(file) == 0 { written += 1 }
    return written
  }
}
