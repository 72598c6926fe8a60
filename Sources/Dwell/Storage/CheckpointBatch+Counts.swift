/// The journal form of what a version 3 checkpoint record adds: actions by day, sessions by
/// day and earnings of recurring rules; and the size of a record's visit rows.
extension CheckpointBatch {
  /// About the bytes the closed visits' rows take in a record (each a name and three
  /// numbers), found without encoding them.
  var closedVisitBytes: Int { closedVisits.reduce(0) { $0 + $1.screen.utf8.count + 32 } }

  /// Decodes what a version 3 record adds: actions, sessions by day, earnings. `false` if malformed.
  mutating func decodeCounts(_ r: inout BinaryReader) -> Bool {
    guard let actionCount = r.int() else { return false }
    for _ in 0..<actionCount {
      guard let name = r.string(), !name.isEmpty, let ordinal = r.int64().flatMap({ Int32(exactly: $0) }),
        let count = r.int64().flatMap({ Int(exactly: $0) }), count >= 0
      else { return false }
      actions.append(ActionCount(name: name, day: Day(ordinal: ordinal), count: count))
    }
    guard let sessionCount = r.int() else { return false }
    for _ in 0..<sessionCount {
      guard let ordinal = r.int64().flatMap({ Int32(exactly: $0) }),
        let count = r.int64().flatMap({ Int(exactly: $0) }),
        count >= 0
      else {
        return false
      }
      sessionDays.append(SessionCount(day: Day(ordinal: ordinal), count: count))
    }
    guard let earningCount = r.int() else { return false }
    for _ in 0..<earningCount {
      guard let rule = r.string(), let period = r.string(), let mono = r.int64(), let boot = r.string(),
        let wall = r.int64(), let points = r.int64().flatMap({ Int(exactly: $0) }), Store.isPoints(points)
      else { return false }
      earnings.append(
        UnlockRecord(
          rule: rule, mono: MonotonicInstant(nanoseconds: mono), boot: boot,
          wall: WallInstant(nanosecondsSince1970: wall), points: points, period: period))
    }
    return true
  }
}
