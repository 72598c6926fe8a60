/// Writing: folding checkpoint batches of additive deltas into the rollups, one
/// transaction each, and the screen ids they need.
extension Store {
  /// Folds a batch into the rollups in one transaction: all of it, or none of it.
  ///
  /// When `journal` is given, the fold also records that the journal's records up to
  /// `sequence` are folded, so recovering that journal after a crash never counts twice.
  func fold(_ batch: CheckpointBatch, journal: String?, sequence: UInt64) throws {
    try write { _ in
      try writeTransaction {
        try apply(batch)
        if let journal {
          try setState("folded:" + journal, Int64(bitPattern: sequence))
        }
      }
    }
  }

  /// Returns once the store can be written (another connection's write lock, if any, is
  /// gone), waiting at most `milliseconds`; throws SQLite's busy error if it is still held.
  func waitUntilWritable(milliseconds: Int32) throws {
    try write { database in
      database.setBusyTimeout(milliseconds)
      defer { database.setBusyTimeout(Database.busyTimeout) }
      try database.execute("BEGIN IMMEDIATE")
      try database.execute("ROLLBACK")
    }
  }

  func setState(_ key: String, _ value: Int64) throws {
    try database.statement(
      "INSERT INTO state(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
    ).bind(key, value).run()
  }

  /// Applies a batch's changes (not its open visits). Runs inside a transaction.
  func apply(_ batch: CheckpointBatch) throws {
    let day = try database.statement(
      """
      INSERT INTO day_totals(day, screen, nanos) VALUES(?, ?, ?)
      ON CONFLICT(day, screen) DO UPDATE SET nanos = nanos + excluded.nanos
      """)
    let group = try database.statement(
      """
      INSERT INTO group_days(day, screens, nanos) VALUES(?, ?, ?)
      ON CONFLICT(day, screens) DO UPDATE SET nanos = nanos + excluded.nanos
      """)
    for entry in batch.days {
      if let screen = entry.screen, let members = ScreenGroup.members(screen) {
        try group.bind(entry.day.description, members.joined(separator: "\n"), entry.nanos).run()
        group.reset()
        continue
      }
      let id = try entry.screen.map(screenID) ?? 0
      try day.bind(entry.day.description, id, entry.nanos).run()
      day.reset()
    }
    let visits = try database.statement("UPDATE screens SET visits = visits + ? WHERE id = ?")
    let dayVisits = try database.statement(
      """
      INSERT INTO day_totals(day, screen, nanos, visits) VALUES(?, ?, 0, ?)
      ON CONFLICT(day, screen) DO UPDATE SET visits = visits + excluded.visits
      """)
    for visit in batch.visits {
      let id = try screenID(visit.screen)
      try visits.bind(visit.count, id).run()
      visits.reset()
      if let day = visit.day {
        try dayVisits.bind(day.description, id, visit.count).run()
        dayVisits.reset()
      }
    }
    let insert = try database.statement(
      "INSERT INTO visits(screen, started_at, ended_at, active_ms) VALUES(?, ?, ?, ?)")
    for visit in batch.closedVisits {
      try insert.bind(
        try screenID(visit.screen), visit.started.millisecondsSince1970, visit.ended.millisecondsSince1970,
        visit.activeNanos / 1_000_000
      ).run()
      insert.reset()
    }
    if batch.sessions != 0 {
      try database.statement(
        """
        INSERT INTO state(key, value) VALUES('sessions', ?)
        ON CONFLICT(key) DO UPDATE SET value = value + excluded.value
        """
      ).bind(batch.sessions).run()
    }
    if let stop = batch.lastStop {
      let current = Self.stop(try stateValues())
      if current.map({ stop.isAfter($0) || stop == $0 }) ?? true {
        try setState("last_stop_mono", stop.mono)
        try database.statement(
          "INSERT INTO state(key, value) VALUES('last_stop_boot', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
        ).bind(stop.boot).run()
        try setState("last_stop_wall", stop.wall.nanosecondsSince1970)
      }
    }
    let unlock = try database.statement(
      "INSERT OR IGNORE INTO unlocks(rule, unlocked_at, mono_ns, boot, points) VALUES(?, ?, ?, ?, ?)")
    for record in batch.unlocks {
      try unlock.bind(
        record.rule, record.wall.millisecondsSince1970, record.mono.nanoseconds, record.boot, record.points
      ).run()
      unlock.reset()
    }
    let award = try database.statement(
      "INSERT INTO awards(source, points, reason, awarded_at) VALUES(?, ?, ?, ?)")
    for item in batch.awards {
      try award.bind(item.source, item.points, item.reason, item.wall.millisecondsSince1970).run()
      award.reset()
    }
    try applyCounts(batch)
    let listener = try database.statement(
      "INSERT INTO listener_state(source, data) VALUES(?, ?) ON CONFLICT(source) DO UPDATE SET data = excluded.data")
    for state in batch.listenerStates {
      try listener.bind(state.source, state.data).run()
      listener.reset()
    }
  }

  /// Applies a batch's actions, sessions by day and earnings. Runs inside a transaction.
  private func applyCounts(_ batch: CheckpointBatch) throws {
    let count = try database.statement(
      """
      INSERT INTO day_counts(day, kind, name, count) VALUES(?, ?, ?, ?)
      ON CONFLICT(day, kind, name) DO UPDATE SET count = count + excluded.count
      """)
    for action in batch.actions {
      try count.bind(action.day.description, "action", action.name, action.count).run()
      count.reset()
    }
    for session in batch.sessionDays {
      try count.bind(session.day.description, "session", "", session.count).run()
      count.reset()
    }
    let earning = try database.statement(
      "INSERT OR IGNORE INTO earnings(rule, period, earned_at, mono_ns, boot, points) VALUES(?, ?, ?, ?, ?, ?)")
    for record in batch.earnings {
      try earning.bind(
        record.rule, record.period ?? "", record.wall.millisecondsSince1970, record.mono.nanoseconds, record.boot,
        record.points
      ).run()
      earning.reset()
    }
  }

  /// A transaction that may add screens. If it rolls back (a full disk, say), the screen
  /// ids it cached roll back with it: a stale id would send later visits and screen
  /// totals to a row that does not exist, and lose them.
  func writeTransaction(_ body: () throws -> Void) throws {
    do {
      try database.transaction(body)
    } catch {
      screenIDs.removeAll()
      throw error
    }
  }

  /// Forgets the cached screen ids (after the screens table was emptied).
  func forgetScreenIDs() { screenIDs.removeAll() }

  private func screenID(_ name: String) throws -> Int64 {
    if let id = screenIDs[name] { return id }
    try database.statement("INSERT OR IGNORE INTO screens(name) VALUES(?)").bind(name).run()
    let select = try database.statement("SELECT id FROM screens WHERE name = ?")
    defer { select.reset() }
    try select.bind(name)
    guard try select.step() else {
      throw DatabaseError(.internal, message: "screen row missing after insert")
    }
    let id = select.int(0)
    screenIDs[name] = id
    return id
  }
}
