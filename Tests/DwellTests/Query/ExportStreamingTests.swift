import DwellLua
import DwellTesting
import Foundation
import Testing

@testable import Dwell

/// The export streams (issue #27, item 7): a page at a time from the store's queue to a
/// sink, byte for byte what the whole-document export wrote (``LegacyExporter``), and a
/// write that fails is an error.
@Suite struct ExportStreamingTests {
  /// Names and texts that JSON and CSV must escape: commas, quotes, line breaks, a slash
  /// (kept as is), a tab, a backslash, non-ASCII.
  static let awkward = [
    "Home, \"main\"", "line\nbreak", "cr\rreturn", "crlf\r\nboth", "slash/ed", "tab\there", "back\\slash", "naïve ✓ 日本",
    "plain",
  ]

  /// A store folded by hand: three days, every awkward name as a screen (several visits
  /// each, some starting at the same instant), awards with awkward reasons, unlocks,
  /// plugin states holding JSON text, sessions.
  static func awkwardStore(at path: String) throws -> Store {
    let store = try Store(path: path)
    var batch = CheckpointBatch(boot: "test")
    let start: Int64 = 1_772_442_000_000_000_000
    guard let first = Day("2026-03-02") else { throw CocoaError(.coderInvalidValue) }
    for (index, name) in awkward.enumerated() {
      for repeatIndex in 0..<3 {
        let day = first.adding(days: Int32(repeatIndex))
        let started = start + Int64(repeatIndex) * 86_400_000_000_000 + Int64(index % 4) * 60_000_000_000
        let nanos = Int64(1_000 + index * 250 + repeatIndex) * 1_000_000
        batch.closedVisits.append(
          VisitRecord(
            screen: name, started: WallInstant(nanosecondsSince1970: started),
            ended: WallInstant(nanosecondsSince1970: started + nanos), activeNanos: nanos))
        batch.days.append(.init(day: day, screen: name, nanos: nanos))
        batch.days.append(.init(day: day, screen: nil, nanos: nanos))
        batch.visits.append(.init(screen: name, day: day, count: 1))
      }
      batch.awards.append(
        Award(source: name, points: index - 3, reason: "for " + name, wall: WallInstant(nanosecondsSince1970: start)))
      batch.listenerStates.append(.init(source: "plugin " + name, data: "{\"note\":\"\(name)\",\"n\":\(index)}"))
    }
    batch.unlocks = [
      UnlockRecord(
        rule: "first, \"quoted\"", mono: MonotonicInstant(nanoseconds: 5), boot: "test",
        wall: WallInstant(nanosecondsSince1970: start), points: 10),
      UnlockRecord(
        rule: "second", mono: MonotonicInstant(nanoseconds: 9), boot: "test",
        wall: WallInstant(nanosecondsSince1970: start + 1_500_000_000), points: 0),
    ]
    batch.sessions = 4
    try store.fold(batch, journal: nil, sequence: 0)
    return store
  }

  static let titles = [
    "first, \"quoted\"": Rule("first, \"quoted\"", when: .sessions(1), title: "Title, with \"quotes\"\nand a line")
  ]

  /// The streamed export of a store with every kind of record and awkward names is the old
  /// export, byte for byte, for every page size (pages of 1 row to the default), both formats.
  @Test(arguments: ExportFormat.allCases)
  func streamedOutputIsTheOldOutput(format: ExportFormat) throws {
    let folder = TemporaryStore()
    let store = try Self.awkwardStore(at: folder.path)
    let old = try LegacyExporter(store: store, rules: Self.titles).render(format)
    #expect(old.contains("naïve"))
    for pageSize in [1, 2, 3, 7, Exporter.pageSize] {
      let sink = ExportSink()
      try Exporter(store: store, rules: Self.titles, pageSize: pageSize).write(format, to: sink)
      #expect(sink.text == old, "page size \(pageSize)")
    }
    // Through a file handle, as the tool writes it (no titles: the tool has no rules).
    let file = folder.directory + "/export." + format.rawValue
    #expect(FileManager.default.createFile(atPath: file, contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
    try store.export(format, to: handle)
    try handle.close()
    let untitled = try LegacyExporter(store: store).render(format)
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(untitled.utf8))
  }

  /// Every awkward name that holds a comma, a quote or a line break is a quoted CSV field,
  /// `"\r\n"` included (one `Character` in Swift, so a per-character test missed it).
  @Test func csvQuotesEveryLineBreak() throws {
    let folder = TemporaryStore()
    let store = try Self.awkwardStore(at: folder.path)
    let sink = ExportSink()
    try Exporter(store: store, rules: Self.titles).write(.csv, to: sink)
    for name in Self.awkward where name.utf8.contains(where: { [0x2C, 0x22, 0x0A, 0x0D].contains($0) }) {
      let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      let quotedField = sink.text.contains("," + quoted + ",") || sink.text.contains("\n" + quoted + ",")
      #expect(quotedField, "\(name.debugDescription)")
    }
  }

  /// An empty store (every section empty) exports as before.
  @Test(arguments: ExportFormat.allCases)
  func anEmptyStoreExportsAsBefore(format: ExportFormat) throws {
    let store = try Store(path: ":memory:")
    let sink = ExportSink()
    try Exporter(store: store, pageSize: 2).write(format, to: sink)
    #expect(sink.text == (try LegacyExporter(store: store).render(format)))
  }

  /// Through the tracker: several days of use, an unlock with a title, a plugin's awards
  /// and state, written to a file handle; the file is the old export of the same store.
  @Test(arguments: ExportFormat.allCases)
  func theTrackersFileExportIsTheOldOutput(format: ExportFormat) async throws {
    let folder = TemporaryStore()
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(folder.path)
    let sim = TrackerSimulation(configuration: configuration)
    let tracker = sim.tracker
    try tracker.setRules(pack: try LuaRulePack(scripts: [("counter.lua", ExportDuckDBTests.pack)]))
    for day in 0..<4 {
      if day > 0 { sim.nextDay() }
      sim.use("Lessons", for: .minutes(12))
      sim.use("Home, \"main\"", for: .minutes(3))
      sim.use("slash/ed", for: .seconds(7))
    }
    let file = folder.directory + "/export." + format.rawValue
    #expect(FileManager.default.createFile(atPath: file, contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
    try await tracker.export(format, to: handle)
    try handle.close()
    let titles = Dictionary(tracker.rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let old = try LegacyExporter(store: Store(path: folder.path, readOnly: true), rules: titles).render(format)
    #expect(old.contains("Bonus level") && old.contains("a session, with a comma"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(old.utf8))
    tracker.terminate()
  }

  /// A write that fails is the export's error, not a silent short file: a closed handle,
  /// and a full disk (`/dev/full`, where there is one).
  @Test func aFailingWriteThrows() async throws {
    let folder = TemporaryStore()
    let store = try Self.awkwardStore(at: folder.path)
    let file = folder.directory + "/closed.csv"
    #expect(FileManager.default.createFile(atPath: file, contents: nil))
    let closed = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
    try closed.close()
    #expect(throws: (any Error).self) { try store.export(.csv, to: closed) }
    let sim = TrackerSimulation()
    sim.use("Lessons", for: .minutes(1))
    await #expect(throws: (any Error).self) { try await sim.tracker.export(.json, to: closed) }
    if let full = FileHandle(forWritingAtPath: "/dev/full") {
      #expect(throws: (any Error).self) { try store.export(.json, to: full) }
      try full.close()
    }
  }

  /// The writer folds between pages (each page is one turn of the store's queue, the sorted
  /// statement held across them); visits folded after the export began are not in it.
  @Test func theWriterFoldsBetweenPagesAndLaterRowsStayOut() throws {
    let folder = TemporaryStore()
    let store = try Self.awkwardStore(at: folder.path)
    let before = try store.allVisits()
    let late = Store.SyntheticVisit(
      screen: "late", started: WallInstant(nanosecondsSince1970: 1_900_000_000_000_000_000), active: .seconds(1),
      day: Day("2030-03-17") ?? Day(ordinal: 0))
    let mark = try store.exportMark()
    // Folded after the export began, before its first page: not in it either.
    try store.appendVisits([late])
    var seen: [VisitRecord] = []
    var folds = 0
    try store.forEachVisitPage(upTo: mark, size: 2) { page in
      seen += page
      try store.appendVisits([late])
      folds += 1
    }
    #expect(seen == before)
    #expect(folds == (before.count + 1) / 2)
    #expect(try store.allVisits().count == before.count + folds + 1)
  }
}
