/// Finding a damaged store at open, cheaply enough for a launch: SQLite's `quick_check` of
/// every page of a small store, of every table but the raw visits of a large one, and the
/// file's tables and columns against those its recorded migrations make.
///
/// A garbled page that open does not read (the migrations table's own page is read through
/// its index) would otherwise be found later, when a fold or an export reads it: commits
/// would fail from then on, or a damaged record would be read as a missing one.
extension Store {
  /// Stores up to this size (the database file, with the pages in its write-ahead log) get
  /// the whole `quick_check`, which reads every page: about 6 ms of CPU a MiB (25 ms for a
  /// 4.2 MiB store of 140,000 visits, 134 ms for a heavy year's 27 MiB). Larger ones check
  /// every table and index but the raw visits (5 ms for that year), and the visits'
  /// rightmost path, where folds insert; a garbled page among older visits is found when
  /// an export reads it.
  static let wholeCheckLimit: Int64 = 1 << 20

  /// Throws ``DatabaseError`` with `.corrupt` when the store is damaged.
  static func checkIntegrity(_ db: Database, applied: Set<String>) throws {
    try checkSchema(db, applied: applied)
    try checkValues(db, applied: applied)
    let pages = try db.scalar("PRAGMA page_count") ?? 0
    let pageSize = try db.scalar("PRAGMA page_size") ?? 4096
    if pages <= wholeCheckLimit / max(pageSize, 1) {
      try quickCheck(db, "PRAGMA quick_check")
    } else {
      for table in ["dwell_migrations"] + tables(after: applied).keys.sorted() where table != "visits" {
        try quickCheck(db, "PRAGMA quick_check('\(table)')")
      }
      if applied.contains("v1-initial") { _ = try db.scalar("SELECT MAX(id) FROM visits") }
    }
  }

  /// Runs a `quick_check`; anything but a single "ok" is damage.
  private static func quickCheck(_ db: Database, _ sql: String) throws {
    let rows = try db.statement(sql)
    defer { rows.reset() }
    var first: String?
    do {
      while try rows.step() { first = first ?? rows.text(0) }
    } catch let error as DatabaseError where error.isCorruption {
      throw damaged("\(error.message)")
    }
    guard first == "ok" else { throw damaged(first ?? "the integrity check returned nothing") }
  }

  /// The file's tables and their columns must be those its applied migrations make: a
  /// table missing or changed means the schema or the migration records are damaged.
  private static func checkSchema(_ db: Database, applied: Set<String>) throws {
    let expected = tables(after: applied)
    let found = try tables(in: db)
    for (table, columns) in expected where found[table] != columns {
      guard let have = found[table] else { throw damaged("table '\(table)' is missing") }
      throw damaged("table '\(table)' has columns \(have), not \(columns)")
    }
    if let table = Set(found.keys).subtracting(expected.keys).sorted().first {
      throw damaged("table '\(table)' exists but no recorded migration makes it")
    }
  }

  /// The tables (with their columns, in order) that the migrations in `applied` make, as
  /// SQLite builds them in memory; memoised per set.
  static func tables(after applied: Set<String>) -> [String: [String]] {
    referenceSchemas.withLock { cache in
      if let known = cache[applied] { return known }
      var result: [String: [String]] = [:]
      if let reference = try? Database(path: ":memory:") {
        for migration in migrations where applied.contains(migration.id) {
          try? reference.execute(migration.sql)
        }
        result = (try? tables(in: reference)) ?? [:]
      }
      cache[applied] = result
      return result
    }
  }

  private static let referenceSchemas = Locked<[Set<String>: [String: [String]]]>([:])

  /// The tables of `db` (not SQLite's own, not the migration records) and their columns.
  private static func tables(in db: Database) throws -> [String: [String]] {
    let rows = try db.statement(
      """
      SELECT m.name, c.name FROM sqlite_schema m, pragma_table_info(m.name) c
      WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND m.name <> 'dwell_migrations'
      ORDER BY m.name, c.cid
      """)
    defer { rows.reset() }
    var result: [String: [String]] = [:]
    while try rows.step() { result[rows.text(0), default: []].append(rows.text(1)) }
    return result
  }

  private static func damaged(_ why: String) -> DatabaseError {
    DatabaseError(.corrupt, message: "the store is damaged: \(why)")
  }
}
