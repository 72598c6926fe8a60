import Foundation
import Testing

@testable import Dwell

/// The SQLite glue: named result codes, checked bindings, reads that cannot write, and
/// journal errors that are not SQLite errors.
@Suite struct DatabaseTests {
  @Test func extendedCodesHaveTheirPrimaryCode() {
    #expect(ResultCode(rawValue: 778).primary == .ioError)  // SQLITE_IOERR_WRITE
    #expect(ResultCode(rawValue: 267).primary == .corrupt)  // SQLITE_CORRUPT_VTAB
    #expect(ResultCode.busy.description == "database is locked")
    #expect(DatabaseError(ResultCode(rawValue: 267), message: "").isCorruption)
    #expect(!DatabaseError(.busy, message: "").isCorruption)
  }

  @Test func bindingTheWrongNumberOfValuesIsAnError() throws {
    let database = try Database(path: ":memory:")
    try database.execute("CREATE TABLE t(a, b)")
    let insert = try database.statement("INSERT INTO t VALUES(?, ?)")
    #expect {
      try insert.bind("one")
    } throws: { error in
      (error as? DatabaseError)?.resultCode == .misuse
    }
    #expect(throws: DatabaseError.self) { try insert.bind(1, 2, 3) }
    try insert.bind(1, Optional<String>.none).run()
    #expect(try database.scalar("SELECT COUNT(*) FROM t WHERE b IS NULL") == 1)
  }

  /// Every byte of a text value is stored and read back, a NUL and non-ASCII included.
  @Test func textRoundTripsEveryByte() throws {
    let database = try Database(path: ":memory:")
    try database.execute("CREATE TABLE t(a TEXT)")
    let name = "Le\u{0}ssons · 東京 😀"
    try database.statement("INSERT INTO t VALUES(?)").bind(name).run()
    let select = try database.statement("SELECT a, length(CAST(a AS BLOB)) FROM t")
    #expect(try select.step())
    #expect(select.text(0) == name)
    #expect(select.int(1) == Int64(name.utf8.count))
  }

  /// A read runs on the store's queue with writes refused, so a query that writes by
  /// mistake fails instead of changing the file.
  @Test func aReadCannotWrite() throws {
    let directory = TemporaryStore()
    let store = try Store(path: directory.path)
    #expect(try store.read { try $0.scalar("SELECT COUNT(*) FROM visits") } == 0)
    #expect {
      try store.read { try $0.statement("DELETE FROM visits").run() }
    } throws: { error in
      guard case StoreError.database(let database) = error else { return false }
      return database.resultCode == .readOnly
    }
    #expect(throws: StoreError.self) { try store.read { try $0.execute("DELETE FROM visits") } }
    // The connection writes again afterwards.
    try store.write { try $0.execute("DELETE FROM visits") }
  }

  /// A journal that cannot be created reports the system's error, not a SQLite code
  /// (an `errno` of 11, `EAGAIN`, once read as `SQLITE_CORRUPT`).
  @Test func journalFailuresAreJournalErrors() throws {
    let missing = FileManager.default.temporaryDirectory.path + "/dwell-no-such-dir-\(UUID().uuidString)/usage.sqlite"
    #expect {
      _ = try Journal(storePath: missing)
    } throws: { error in
      guard let journal = error as? JournalError else { return false }
      return journal.operation == .create && journal.errorNumber == ENOENT
        && journal.description.contains("No such file")
    }
    let directory = TemporaryStore()
    let journal = try Journal(storePath: directory.path)
    defer { journal.remove() }
    var huge = [UInt8](repeating: 0, count: Journal.slotSize + 1)
    #expect(throws: JournalError.self) { try journal.write(&huge) }
  }
}
