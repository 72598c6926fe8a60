/// A key of the per-day rollup: a day and a screen index (-1 for the whole app).
struct DayKey: Hashable, Sendable {
  var day: Day
  var screen: Int32
}

/// One row of the raw `visits` table.
struct VisitRow: Sendable, Equatable {
  var id: Int64
  var screen: Int32
  var started: WallInstant
  var ended: WallInstant
  var activeNanos: Int64
  var open: Bool
}

/// A rule that unlocked: when, on both clocks.
public struct UnlockRecord: Sendable, Equatable {
  /// The rule's id.
  public var rule: String
  /// The monotonic instant of the unlock, in the boot session ``boot``.
  public var mono: MonotonicInstant
  /// The boot session of ``mono``.
  public var boot: String
  /// The wall-clock instant of the unlock.
  public var wall: WallInstant
}

/// Changes made in memory since the last commit.
struct PendingChanges: Sendable {
  var days: [DayKey: Int64] = [:]
  var visits: [Int32: Int] = [:]
  var visitRows: [Int64: VisitRow] = [:]
  var sessions = 0
  var lastStop: StopMark?
  var unlocks: [UnlockRecord] = []

  @inline(__always)
  mutating func add(_ amount: Int64, day: Day, screen: Int32) {
    days[DayKey(day: day, screen: screen), default: 0] += amount
  }

  var isEmpty: Bool {
    days.isEmpty && visits.isEmpty && visitRows.isEmpty && sessions == 0 && lastStop == nil
      && unlocks.isEmpty
  }

  /// Folds in older changes whose commit failed; newer values win where they overlap.
  mutating func merge(olderThanSelf older: PendingChanges) {
    for (key, value) in older.days { days[key, default: 0] += value }
    for (key, value) in older.visits { visits[key, default: 0] += value }
    for (key, value) in older.visitRows where visitRows[key] == nil { visitRows[key] = value }
    sessions += older.sessions
    if lastStop == nil { lastStop = older.lastStop }
    unlocks = older.unlocks + unlocks
  }
}

/// What one commit writes: the pending changes plus the names of the screens they mention.
struct CheckpointBatch: Sendable {
  var changes: PendingChanges
  var screenNames: [Int32: String]
}
