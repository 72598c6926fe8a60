/// Accrued time of one subject (the app, or one screen): all-time and per local day; for
/// a screen, also its visits per local day.
struct Tally: Sendable, Equatable {
  var nanos: Int64 = 0
  /// Time per local day but the day credited last (`latest`), whose time is kept apart:
  /// crediting it and reading it, at every tick, hash no day.
  private var earlier: [Day: Int64] = [:]
  private var latest: Day?
  private var latestNanos: Int64 = 0
  /// Visits begun on each local day (screens only). Visits counted by a Dwell that kept
  /// no per-day counts, and not found in the store's visit rows, are in no day.
  var visitDays: [Day: Int] = [:]

  /// Time per local day (a copy: for queries and saving, not for every tick).
  var days: [Day: Int64] {
    guard let latest else { return earlier }
    var all = earlier
    all[latest] = latestNanos
    return all
  }

  /// Adds time, saturating at 292 years rather than trapping: only a damaged or forged
  /// store holds that much, and it must not crash the app that opens it. Returns whether
  /// `day` had no time before (no hash when `day` is the day credited last, as at every tick).
  @inline(__always) @discardableResult
  mutating func add(_ amount: Int64, on day: Day) -> Bool {
    nanos.addSaturating(amount)
    if day == latest {
      latestNanos.addSaturating(amount)
      return false
    }
    return move(to: day, adding: amount)
  }

  /// Makes `day` the latest day, putting the one before it with the others, and adds `amount`.
  private mutating func move(to day: Day, adding amount: Int64) -> Bool {
    if let latest { earlier[latest] = latestNanos }
    let had = earlier.removeValue(forKey: day)
    latest = day
    latestNanos = had ?? 0
    latestNanos.addSaturating(amount)
    return had == nil
  }

  func nanos(on day: Day) -> Int64 { day == latest ? latestNanos : earlier[day] ?? 0 }

  static func == (a: Tally, b: Tally) -> Bool {
    a.nanos == b.nanos && a.visitDays == b.visitDays && a.days == b.days
  }

  /// Adds visits begun on `day`, saturating (a damaged store's counts must not trap).
  mutating func addVisits(_ count: Int, on day: Day) {
    let (sum, overflow) = visitDays[day, default: 0].addingReportingOverflow(count)
    visitDays[day] = overflow ? (count > 0 ? .max : .min) : sum
  }

  /// Adds a subject's rows of the store's day totals (none negative), with the day tables
  /// sized for them first.
  mutating func add(_ rows: [DayRow]) {
    earlier.reserveCapacity(earlier.count + rows.count)
    let visited = rows.reduce(0) { $1.visits > 0 ? $0 + 1 : $0 }
    if visited > 0 { visitDays.reserveCapacity(visitDays.count + visited) }
    for row in rows {
      if row.nanos > 0 { add(row.nanos, on: row.day) }
      if row.visits > 0 { addVisits(row.visits, on: row.day) }
    }
  }
}
