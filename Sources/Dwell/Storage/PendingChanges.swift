// What accrued since the last fold, waiting to go into the store.

/// Changes made in memory since the last fold into SQLite, keyed by screen index.
struct PendingChanges: Sendable {
  var days: [DayKey: Int64] = [:]
  var visits: [VisitKey: Int] = [:]
  var closedVisits: [VisitRecord] = []
  var sessions = 0
  var lastStop: StopMark?
  var unlocks: [UnlockRecord] = []
  var awards: [Award] = []
  var listenerStates: [String: String] = [:]
  var actions: [ActionKey: Int] = [:]
  var sessionDays: [Day: Int] = [:]
  /// Earnings of recurring rules (their ``UnlockRecord/period`` set).
  var earnings: [UnlockRecord] = []

  @inline(__always)
  mutating func add(_ amount: Int64, day: Day, screen: Int32) {
    days[DayKey(day: day, screen: screen), default: 0].addSaturating(amount)
  }

  var isEmpty: Bool {
    days.isEmpty && visits.isEmpty && closedVisits.isEmpty && sessions == 0 && lastStop == nil
      && unlocks.isEmpty && awards.isEmpty && listenerStates.isEmpty && actions.isEmpty && sessionDays.isEmpty
      && earnings.isEmpty
  }
}
