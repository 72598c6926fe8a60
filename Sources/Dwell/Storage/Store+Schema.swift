internal import Foundation

/// The store's schema: its migrations, append only, each applied once in a transaction
/// and recorded in the file (after GRDB's `DatabaseMigrator`).
extension Store {
  /// The migrations, in order. Append only: never edit or reorder a shipped one.
  static let migrations: [(id: String, sql: String)] = [
    (
      "v1-initial",
      """
      CREATE TABLE screens(
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        visits INTEGER NOT NULL DEFAULT 0);
      CREATE TABLE day_totals(
        day TEXT NOT NULL,
        screen INTEGER NOT NULL,
        nanos INTEGER NOT NULL,
        PRIMARY KEY(day, screen)) WITHOUT ROWID;
      CREATE TABLE visits(
        id INTEGER PRIMARY KEY,
        screen INTEGER NOT NULL,
        started_at INTEGER NOT NULL,
        ended_at INTEGER NOT NULL,
        active_ms INTEGER NOT NULL);
      CREATE TABLE unlocks(
        rule TEXT PRIMARY KEY,
        unlocked_at INTEGER NOT NULL,
        mono_ns INTEGER NOT NULL,
        boot TEXT NOT NULL);
      CREATE TABLE state(
        key TEXT PRIMARY KEY,
        value) WITHOUT ROWID;
      """
    ),
    (
      "v2-listeners",
      """
      CREATE TABLE awards(
        id INTEGER PRIMARY KEY,
        source TEXT NOT NULL,
        points INTEGER NOT NULL,
        reason TEXT NOT NULL,
        awarded_at INTEGER NOT NULL);
      CREATE TABLE listener_state(
        source TEXT PRIMARY KEY,
        data TEXT NOT NULL);
      ALTER TABLE unlocks ADD COLUMN points INTEGER NOT NULL DEFAULT 0;
      """
    ),
    (
      // Visits per day and screen. Days before the upgrade get their counts from the
      // visit rows still kept, by the device's time zone at the upgrade.
      "v3-day-visits",
      """
      ALTER TABLE day_totals ADD COLUMN visits INTEGER NOT NULL DEFAULT 0;
      INSERT INTO day_totals(day, screen, nanos, visits)
        SELECT date(started_at / 1000, 'unixepoch', 'localtime'), screen, 0, COUNT(*)
        FROM visits WHERE screen > 0 GROUP BY 1, 2
        ON CONFLICT(day, screen) DO UPDATE SET visits = excluded.visits;
      """
    ),
    (
      // Counts per local day: actions by name (kind 'action'), sessions begun (kind
      // 'session', name ''); and every earning of a recurring rule, once per period.
      "v4-actions",
      """
      CREATE TABLE day_counts(
        day TEXT NOT NULL,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY(day, kind, name)) WITHOUT ROWID;
      CREATE TABLE earnings(
        rule TEXT NOT NULL,
        period TEXT NOT NULL,
        earned_at INTEGER NOT NULL,
        mono_ns INTEGER NOT NULL,
        boot TEXT NOT NULL,
        points INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY(rule, period)) WITHOUT ROWID;
      """
    ),
    (
      // Time per local day of each screen group the rules measure (`screens`: its screens'
      // names, sorted, one a line): the union of its screens' time, which their own day
      // totals cannot give when two of them were visible at once. Visits are not kept: a
      // group's are its screens' added up.
      "v5-screen-groups",
      """
      CREATE TABLE group_days(
        day TEXT NOT NULL,
        screens TEXT NOT NULL,
        nanos INTEGER NOT NULL,
        PRIMARY KEY(day, screens)) WITHOUT ROWID;
      """
    ),
  ]

  /// The newest schema version this build writes.
  package static var schemaVersion: Int { migrations.count }

  /// The migrations the file records; refuses a file from a newer Dwell.
  private static func appliedMigrations(_ db: Database) throws -> Set<String> {
    var applied = Set<String>()
    let rows = try db.statement("SELECT identifier FROM dwell_migrations")
    while try rows.step() { applied.insert(rows.text(0)) }
    if let unknown = applied.subtracting(migrations.map(\.id)).sorted().first {
      throw StoreError.newerSchema(migration: unknown)
    }
    return applied
  }

  /// Applies the migrations the file lacks, after checking it is not damaged (see
  /// ``checkIntegrity(_:applied:)``); refuses a file from a newer Dwell.
  static func migrate(_ db: Database, readOnly: Bool) throws {
    if !readOnly {
      try db.execute(
        "CREATE TABLE IF NOT EXISTS dwell_migrations(identifier TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
      )
    }
    // One read snapshot for the records and the check: another process (an app
    // extension) applying a migration meanwhile must not make the two disagree.
    try db.execute("BEGIN")
    let applied: Set<String>
    do {
      applied = try appliedMigrations(db)
      try checkIntegrity(db, applied: applied)
      try db.execute("COMMIT")
    } catch {
      try? db.execute("ROLLBACK")
      throw error
    }
    for migration in migrations where !applied.contains(migration.id) {
      guard !readOnly else { break }
      try db.transaction {
        // Another process (an app extension) may have applied it since we looked.
        let check = try db.statement("SELECT COUNT(*) FROM dwell_migrations WHERE identifier = ?")
        try check.bind(migration.id)
        let done = try check.step() && check.int(0) > 0
        check.reset()
        guard !done else { return }
        try db.execute(migration.sql)
        try db.statement("INSERT INTO dwell_migrations(identifier, applied_at) VALUES(?, ?)")
          .bind(migration.id, ISO8601.format(WallInstant(Date()))).run()
      }
    }
  }
}
