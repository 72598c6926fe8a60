// A second connection holding a store's write lock, as another process mid-transaction does.

/// A connection of its own to the store at a path, holding `BEGIN EXCLUSIVE` (and a write)
/// until ``release()``: what an App Group extension in a long transaction does to the app.
/// For `dwell kill-soak --locked-at-launch` and tests of a store locked at launch.
package final class StoreLock {
  private let database: Database
  private var held = true

  /// Takes the lock, waiting at most SQLite's busy timeout for it.
  ///
  /// - Throws: ``DatabaseError`` when the file cannot be opened or locked.
  package init(path: String) throws {
    database = try Database(path: path)
    try database.execute("BEGIN EXCLUSIVE")
    // A write, so the lock is a writer's in any journal mode (rolled back on release).
    try database.execute("CREATE TABLE IF NOT EXISTS dwell_lock_probe(x); INSERT INTO dwell_lock_probe VALUES(1)")
  }

  /// Rolls the transaction back, releasing the lock (once).
  package func release() throws {
    guard held else { return }
    held = false
    try database.execute("ROLLBACK")
  }

  deinit { try? release() }
}
