import DwellTesting
import Foundation
import Testing

@testable import Dwell

/// A store damaged where open does not read it (a garbled page, a lost migration record, a
/// missing table) is found at open and moved aside, and tracking goes on in a fresh store.
@Suite struct StoreIntegrityTests {
  /// A store written by a tracker (screens, day totals, visits, an unlock, state), with its
  /// write-ahead log checkpointed into the file; returns its bytes and page size.
  static func writtenStore(at path: String, screens: Int = 40) throws -> (bytes: Data, pageSize: Int) {
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(path)
    configuration.rules = [Rule("minute", when: .appTime(.seconds(60)), title: "Minute", points: 3)]
    do {
      let sim = TrackerSimulation(configuration: configuration)
      for i in 0..<300 { sim.use("Screen\(i % screens)", for: .seconds(7)) }
      sim.tracker.terminate()
    }
    _ = try Store(path: path).sizeInBytes()
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    return (bytes, Int(bytes[16]) << 8 | Int(bytes[17]))
  }

  /// Opens a tracker on `bytes` as the store; returns the problem it reported and whether
  /// it then counted into a fresh store at `path`.
  static func open(_ bytes: Data, at path: String) throws -> (problem: TrackerProblem?, freshStore: Bool) {
    Store.removeFiles(at: path)
    try Store.removeMovedAside(besides: path)
    try bytes.write(to: URL(fileURLWithPath: path))
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(path)
    let sim = TrackerSimulation(configuration: configuration)
    let problem = sim.tracker.lastProblem
    sim.use("After", for: .seconds(5))
    sim.tracker.terminate()
    let stored = try UsageReport(store: Store(path: path, readOnly: true))
    return (problem, stored.screens["After"]?.time == .seconds(5) && stored.screens.count == 1)
  }

  static func isMovedAside(_ problem: TrackerProblem?) -> Bool {
    if case .storeMovedAside? = problem { return true }
    return false
  }

  /// Each page of a small store in turn is garbled (page 1 after its header): every one is
  /// found at open, the file is moved aside, and tracking goes on in a fresh store.
  @Test func everyGarbledPageIsFoundAtOpen() throws {
    let dir = TemporaryStore()
    let (healthy, pageSize) = try Self.writtenStore(at: dir.path)
    let freePages = healthy[32..<36].reduce(0) { $0 << 8 | Int($1) }
    #expect(freePages == 0, "a free page holds nothing to damage")
    let pages = healthy.count / pageSize
    #expect(pages >= 12)
    let control = try Self.open(healthy, at: dir.path)
    #expect(control.problem == nil && !control.freshStore)
    var missed: [Int] = []
    for page in 0..<pages {
      var bytes = healthy
      let start = page * pageSize + (page == 0 ? 100 : 0)
      bytes.replaceSubrange(
        start..<(page + 1) * pageSize, with: Data(repeating: 0xA5, count: (page + 1) * pageSize - start))
      let (problem, fresh) = try Self.open(bytes, at: dir.path)
      if !Self.isMovedAside(problem) || !fresh { missed.append(page + 1) }
    }
    #expect(missed.isEmpty, "garbled pages not found at open: \(missed) of \(pages)")
  }

  /// A healthy store is not taken for a damaged one.
  @Test func aHealthyStoreOpensAsItIs() throws {
    let dir = TemporaryStore()
    let (healthy, _) = try Self.writtenStore(at: dir.path)
    try healthy.write(to: URL(fileURLWithPath: dir.path))
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(dir.path)
    let sim = TrackerSimulation(configuration: configuration)
    #expect(sim.tracker.lastProblem == nil)
    #expect(sim.tracker.time(.app) == .seconds(2100))
  }

  /// A store past the size that gets the whole check: its migration records' page, their
  /// index's and a page of the screens' index are still found at open.
  @Test(arguments: [2, 3, 5])
  func aLargeStoreGarbledOutsideItsVisitsIsFound(page: Int) throws {
    let dir = TemporaryStore()
    let store = try Store(path: dir.path)
    let day = Day("2026-03-02") ?? Day(ordinal: 20514)
    var written = 0
    while try store.sizeInBytes() <= Store.wholeCheckLimit {
      try store.appendVisits(
        (0..<20_000).map { i in
          Store.SyntheticVisit(
            screen: "Screen\(i % 50)", started: WallInstant(nanosecondsSince1970: Int64(written + i) * 1_000_000_000),
            active: .seconds(1), day: day)
        })
      written += 20_000
    }
    let pageSize = 4096
    var bytes = try Data(contentsOf: URL(fileURLWithPath: dir.path))
    #expect(Int(bytes[16]) << 8 | Int(bytes[17]) == pageSize)
    bytes.replaceSubrange((page - 1) * pageSize..<page * pageSize, with: Data(repeating: 0xA5, count: pageSize))
    let (problem, fresh) = try Self.open(bytes, at: dir.path)
    #expect(Self.isMovedAside(problem))
    #expect(fresh)
  }

  enum SchemaDamage: CaseIterable { case lostRecord, lostRecords, lostTable, strangeTable }

  /// The file's tables must be those its migration records make: a record without its
  /// table, or tables without their record, is a damaged store (it used to count in memory
  /// for ever, or fail later).
  @Test(arguments: SchemaDamage.allCases)
  func tablesAndMigrationRecordsMustAgree(damage: SchemaDamage) throws {
    let dir = TemporaryStore()
    let (healthy, _) = try Self.writtenStore(at: dir.path)
    try healthy.write(to: URL(fileURLWithPath: dir.path))
    do {
      let database = try Database(path: dir.path)
      switch damage {
      case .lostRecord: try database.execute("DELETE FROM dwell_migrations WHERE identifier = 'v2-listeners'")
      case .lostRecords: try database.execute("DELETE FROM dwell_migrations")
      case .lostTable: try database.execute("DROP TABLE awards")
      case .strangeTable: try database.execute("CREATE TABLE extra(x)")
      }
      try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
    let (problem, fresh) = try Self.open(try Data(contentsOf: URL(fileURLWithPath: dir.path)), at: dir.path)
    #expect(Self.isMovedAside(problem), "\(String(describing: problem))")
    #expect(fresh)
  }
}

@Suite struct MovedAsideNameTests {
  /// A store damaged again while the name of this second is taken (a store moved aside in
  /// the same second, or under a clock set back) is still moved aside, under a name of its
  /// own; the file already there is untouched. It used to stay in use, counting in memory.
  @Test func aTakenNameIsNotReused() throws {
    let dir = TemporaryStore()
    let now = Int(Date().timeIntervalSince1970)
    for second in now...(now + 30) {
      try Data("earlier \(second)".utf8).write(to: URL(fileURLWithPath: dir.path + ".corrupt-\(second)"))
    }
    try Data(repeating: 0x7A, count: 8192).write(to: URL(fileURLWithPath: dir.path))
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(dir.path)
    let sim = TrackerSimulation(configuration: configuration)
    guard case .storeMovedAside(let aside)? = sim.tracker.lastProblem else {
      Issue.record("not moved aside: \(String(describing: sim.tracker.lastProblem))")
      return
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == Data(repeating: 0x7A, count: 8192))
    #expect(try String(contentsOfFile: dir.path + ".corrupt-\(now)", encoding: .utf8) == "earlier \(now)")
    sim.use("After", for: .seconds(5))
    sim.tracker.terminate()
    #expect(try UsageReport(store: Store(path: dir.path, readOnly: true)).screens["After"]?.time == .seconds(5))
  }
}
