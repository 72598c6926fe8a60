// The key of a visit row.

/// A key of the pending visit counts: the day visits began (`nil` for counts from a
/// journal written before visits were kept by day) and a screen index.
struct VisitKey: Hashable, Sendable {
  var day: Day?
  var screen: Int32
}
