internal import Dwell
internal import DwellHarness
internal import Foundation

/// `dwell export`, `dwell erase` and `dwell check`: a store pulled off a device.
enum StoreCommands {
  static let exportCommand = Command(
    name: "export",
    summary: "Write every visit, day total, action, unlock and earning as JSON or CSV",
    discussion: """
      Writes every visit, day total, action count per day, unlock and earning of
      a recurring rule. CSV is RFC 4180 (UTF-8, CRLF, quoted where needed) with
      ISO 8601 times, one row per record and a 'kind' column.
      """,
    arguments: [.init("STORE", "The SQLite store")],
    options: [
      .value("format", "json|csv", "The format (required)"),
      .value("out", "FILE", "Write to FILE instead of standard output"),
    ],
    sections: [.init("EXAMPLE", "dwell export usage.sqlite --format csv --out usage.csv")],
    run: export)

  static let eraseCommand = Command(
    name: "erase",
    summary: "Remove all usage data from a store",
    discussion: """
      Removes all usage data from the store (totals, visits, unlocks, points, plugin state)
      and says what it removed. The file stays, empty. A damaged store, and the damaged
      stores an app moved aside beside it (STORE.corrupt-*), are deleted.
      """,
    arguments: [.init("STORE", "The SQLite store")],
    run: erase)

  static let checkCommand = Command(
    name: "check",
    summary: "Integrity, schema, counts and date range of a store",
    discussion: """
      Integrity check, schema version, counts, date range and size. Exit 0 when healthy,
      1 with the reason when not.
      """,
    arguments: [.init("STORE", "The SQLite store")],
    run: check)

  static func open(_ path: String, readOnly: Bool) throws -> Store {
    guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure("no store at \(path)") }
    do {
      return try Store(path: path, readOnly: readOnly)
    } catch {
      throw CommandFailure("cannot read the store \(path): \(error)")
    }
  }

  static func export(_ args: Arguments) throws {
    let path = args.argument("STORE")
    guard let format = ExportFormat(rawValue: args.value("format") ?? "") else {
      throw UsageError("export needs --format json or --format csv")
    }
    let store = try open(path, readOnly: true)
    // Written as it is read, 64 KiB at a time: a heavy year's export never sits in memory.
    let out = args.value("out")
    let fd: Int32
    do {
      fd =
        try out.map { file throws(Output.WriteFailure) in try Output.open(file, sparing: Output.storeFiles(path)) } ?? 1
    } catch {
      throw CommandFailure(error.description)
    }
    var failedWrite: Int32?
    var problem: (any Error)?
    do {
      try store.export(format) { bytes in
        if let code = Output.put(bytes, fd: fd) {
          failedWrite = code
          throw Output.failure(out ?? "the standard output", code)
        }
      }
    } catch {
      problem = error
    }
    if let out {
      do {
        try Output.close(fd, out, after: failedWrite)
      } catch {
        throw CommandFailure(error.description)
      }
    }
    if let problem {
      throw CommandFailure(problem is Output.WriteFailure ? "\(problem)" : "cannot export \(path): \(problem)")
    }
  }

  static func erase(_ args: Arguments) throws {
    let path = args.argument("STORE")
    guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure("no store at \(path)") }
    let store: Store
    do {
      store = try Store(path: path, readOnly: false)
    } catch StoreError.database(let error) where error.isCorruption {
      // A damaged store cannot be emptied, and it still holds the user's data: its files go,
      // as the app's erase() deletes the stores it moved aside.
      Store.removeFiles(at: path)
      try removeMovedAside(path)
      guard !FileManager.default.fileExists(atPath: path) else { throw CommandFailure("cannot delete \(path)") }
      Terminal.print(
        "Erased \(path): the store was damaged (\(escapingControls(error.message))), so its files are deleted.")
      return
    } catch {
      throw CommandFailure("cannot read the store \(path): \(error)")
    }
    do {
      let removed = try store.erase()
      Terminal.print(
        "Erased \(path): \(removed.visits) visits, \(removed.dayTotals) day totals, \(removed.screens) screens, \(removed.unlocks) unlocks."
      )
    } catch {
      throw CommandFailure("cannot erase \(path): \(error)")
    }
    try removeMovedAside(path)
  }

  /// Deletes the damaged stores an app moved aside beside `path`: they hold the user's data too.
  private static func removeMovedAside(_ path: String) throws {
    do {
      try Store.removeMovedAside(besides: path)
    } catch {
      throw CommandFailure("cannot delete a damaged store moved aside beside \(path): \(error)")
    }
  }

  static func check(_ args: Arguments) throws {
    let path = args.argument("STORE")
    guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure("no store at \(path)") }
    let store: Store
    do {
      store = try Store(path: path, readOnly: true)
    } catch StoreError.database(let error) where error.isCorruption {
      // Found at open: a damaged page, schema or value (the message names the table and row).
      Terminal.print("Store:     \(path)")
      Terminal.print("Integrity: \(error.message)")
      throw CommandFailure("\(path): \(error.message)")
    } catch {
      throw CommandFailure("cannot read the store \(path): \(error)")
    }
    let integrity: [String]
    let summary: Store.Summary
    do {
      integrity = try store.integrityCheck()
      summary = try store.summary()
      try store.checkVisits()
      _ = try UsageReport(store: store)  // the day totals are checked as they are read
    } catch {
      throw CommandFailure("\(path) is damaged: \(error)")
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    Terminal.print("Store:     \(path) (\(size / 1024) KiB)")
    Terminal.print("Schema:    version \(Store.schemaVersion)")
    Terminal.print("Integrity: \(integrity.joined(separator: "; "))")
    Terminal.print(
      "Contents:  \(summary.screens) screens, \(summary.visits) visits, \(summary.dayTotals) day totals, \(summary.unlocks) unlocks"
    )
    Terminal.print("Days:      \(summary.days.map { "\($0.lowerBound) to \($0.upperBound)" } ?? "none")")
    guard integrity == ["ok"] else { throw CommandFailure("\(path) failed the integrity check") }
  }
}
