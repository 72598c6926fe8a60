import Dwell
import DwellTesting
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A full disk keeps every total and count, and loses as few visit rows as it can: the
/// journal does not take the room a fold needs, and a fold that does not fit saves the
/// totals without the rows (see Reliability, "Damaged or unavailable stores").
@Suite struct FullDiskTests {
  static let suffix = "-" + String(repeating: "x", count: 100)

  /// An app like the one that found the loss: 50 screens with long names, a visit every
  /// 30 ms of manual time, so checkpoints and folds happen as in real use.
  final class App {
    let sim: TrackerSimulation
    let problems = LockedBox<[String]>([])
    private(set) var sent = 0

    init(path: String) {
      var configuration = Tracker.Configuration()
      configuration.storeLocation = .file(path)
      sim = TrackerSimulation(configuration: configuration)
      sim.tracker.onProblem { [problems] problem in problems.update { $0.append("\(problem)") } }
    }

    func visit(_ count: Int) {
      for _ in 0..<count {
        sim.use("Screen-\(sent % 50)" + FullDiskTests.suffix, for: .milliseconds(30))
        sent += 1
      }
    }

    /// 200 visits folded into the store, then 1,500 on a disk filled to its last byte.
    func useWhileTheDiskFills(_ disk: TmpfsMount) {
      visit(200)
      sim.tracker.record(.background)
      sim.tracker.record(.active)
      disk.fill()
      visit(1500)
    }

    var visits: Int { (0..<50).map { sim.tracker.visits("Screen-\($0)" + FullDiskTests.suffix) }.reduce(0, +) }
  }

  /// The disk fills, the app records, the space comes back, the app records on: every
  /// visit reaches the store, its count and its row. The journal once took the freed
  /// space with its record of the whole backlog (two slots of it), the folds kept failing,
  /// and 66 of the 1,800 visits were lost.
  @Test(.enabled(if: TestEnvironment.canMountTmpfs, "mounts a 600 KiB tmpfs: root on Linux, allowed to mount"))
  func spaceFreedOnAFullDiskGoesToTheStore() throws {
    let disk = try TmpfsMount(size: 600 * 1024)
    defer { disk.unmount() }
    let path = disk.path + "/usage.sqlite"
    let app = App(path: path)
    app.useWhileTheDiskFills(disk)
    app.sim.tracker.record(.background)
    #expect(app.problems.value.contains { $0.contains("full") })
    disk.free()
    app.sim.tracker.record(.active)
    app.visit(100)
    app.sim.tracker.terminate()
    #expect(app.visits == 1800)
    let store = try Store(path: path, readOnly: true)
    #expect(try UsageReport(store: store).screens.values.reduce(0) { $0 + $1.visits } == 1800)
    #expect(try store.visits().count == 1800)
  }

  /// The disk stays full until the app ends: every count is kept (in the journal, folded
  /// at the next launch); the rows of the visits on the full disk are what is lost. The
  /// visits since the last checkpoint were lost too: the exit's fold failed and nothing
  /// wrote them to the journal (334 of 1,700 counted before the fix).
  @Test(.enabled(if: TestEnvironment.canMountTmpfs, "mounts a 600 KiB tmpfs: root on Linux, allowed to mount"))
  func aDiskFullUntilTheEndKeepsEveryCount() throws {
    let disk = try TmpfsMount(size: 600 * 1024)
    defer { disk.unmount() }
    let path = disk.path + "/usage.sqlite"
    do {
      let app = App(path: path)
      app.useWhileTheDiskFills(disk)
      app.sim.tracker.terminate()
      #expect(app.problems.value.contains { $0.contains("full") })
    }
    disk.free()
    let relaunched = App(path: path)
    #expect(relaunched.visits == 1700)
    #expect(relaunched.sim.tracker.lastProblem == nil)
  }

  /// With the failure injected (the store cannot grow by a page): the fold saves every
  /// total and count without the new rows, says so, and writes the rows once it can.
  @Test func aFoldThatDoesNotFitSavesTheTotals() throws {
    let rig = Rig()
    let engine = try rig.launch()
    let errors = LockedBox<[String]>([])
    engine.onError { error in errors.update { $0.append("\(error)") } }
    engine.record(.active)
    engine.record(.appear(screen: "Home", id: ScreenInstance("h0")))
    rig.advance(1)
    engine.record(.disappear(id: ScreenInstance("h0")))
    try engine.commit()
    try engine.store.simulateFullDisk(true)
    for i in 1...2_000 {
      engine.record(.appear(screen: "Home", id: ScreenInstance(number: UInt(i))))
      rig.advance(1)
      engine.record(.disappear(id: ScreenInstance(number: UInt(i))))
    }
    #expect(throws: (any Error).self) { try engine.commit() }
    let reader = try Store(path: rig.store.path, readOnly: true)
    let saved = try UsageReport(store: reader)
    #expect(saved.screens["Home"]?.visits == 2_001)
    #expect(saved.screens["Home"]?.time == .seconds(2_001))
    #expect(try reader.visits().count < 2_001)
    #expect(errors.value.contains { $0.contains("the disk is full: every total and count is saved") })
    try engine.store.simulateFullDisk(false)
    try engine.commit()
    engine.terminate()
    #expect(try reader.visits().count == 2_001)
    #expect(try UsageReport(store: reader).screens["Home"]?.visits == 2_001)
  }
}

/// A tmpfs of a given size, mounted on a fresh folder (Linux, root).
final class TmpfsMount {
  let path: String
  private var filler: String { path + "/filler" }

  init(size: Int) throws {
    path = FileManager.default.temporaryDirectory.path + "/dwell-tmpfs-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let run = try Subprocess.run("/usr/bin/env", ["mount", "-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path])
    guard run.status == 0 else {
      try? FileManager.default.removeItem(atPath: path)
      throw CocoaError(.fileWriteNoPermission, userInfo: [NSLocalizedDescriptionKey: run.stderr])
    }
  }

  /// Fills the file system to its last byte.
  func fill() {
    let descriptor = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    defer { close(descriptor) }
    var block = [UInt8](repeating: 0, count: 4096)
    while write(descriptor, &block, block.count) == block.count {}
    while write(descriptor, &block, 1) == 1 {}
  }

  /// Deletes what ``fill()`` wrote.
  func free() { unlink(filler) }

  func unmount() {
    _ = try? Subprocess.run("/usr/bin/env", ["umount", path])
    try? FileManager.default.removeItem(atPath: path)
  }
}
