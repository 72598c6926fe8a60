/// Tracks which days qualify for a day-based condition (active days, streaks): days on
/// which the app, or one screen, reached a minimum. Days only ever join the set.
struct DayQualifier: Sendable {
  struct Key: Hashable, Sendable {
    var screen: String?
    var minimum: Int64
  }

  let key: Key
  private(set) var days = Set<Int32>()
  private(set) var longest = 0
  /// Every run of consecutive days, by its first and by its last day, so the run through
  /// or ending on a day is found in O(1) rather than by walking years of a streak.
  private var runEnd: [Int32: Int32] = [:]
  private var runStart: [Int32: Int32] = [:]
  /// The day inserted last: the day credited again and again while the app is used, and
  /// the first day of its run (the current streak, asked for at every tick).
  private var last: Int32?
  private var lastRunStart: Int32 = 0

  init(key: Key) { self.key = key }

  /// Whether `nanos` on one day is enough.
  func qualifies(_ nanos: Int64) -> Bool { key.minimum > 0 ? nanos >= key.minimum : nanos > 0 }

  var count: Int { days.count }

  /// Whether `day` is not in the set yet; the day inserted last is answered without hashing.
  func lacks(_ day: Day) -> Bool { day.ordinal != last && !days.contains(day.ordinal) }

  mutating func insert(_ day: Day) {
    let d = day.ordinal
    guard days.insert(d).inserted else {
      if last != d { lastRunStart = start(of: d) }
      last = d
      return
    }
    last = d
    // Join the run ending the day before and the run starting the day after, if any.
    let start = runStart.removeValue(forKey: d - 1) ?? d
    let end = runEnd.removeValue(forKey: d + 1) ?? d
    runEnd[start] = end
    runStart[end] = start
    longest = max(longest, Int(end - start) + 1)
    lastRunStart = start
  }

  /// The length of the run of qualifying days through `day`, counting `day` itself.
  func run(through day: Day) -> Int {
    let d = day.ordinal
    if days.contains(d) { return Int(end(of: d) - start(of: d)) + 1 }
    let left = days.contains(d - 1) ? Int(d - start(of: d - 1)) : 0
    let right = days.contains(d + 1) ? Int(end(of: d + 1) - d) : 0
    return left + 1 + right
  }

  /// The first day of the run holding `d` (which qualifies).
  private func start(of d: Int32) -> Int32 {
    if let start = runStart[d] { return start }  // `d` ends its run: the common case
    var first = d
    while days.contains(first - 1) { first -= 1 }
    return first
  }

  /// The last day of the run holding `d` (which qualifies).
  private func end(of d: Int32) -> Int32 {
    if let end = runEnd[d] { return end }  // `d` starts its run
    var last = d
    while days.contains(last + 1) { last += 1 }
    return last
  }

  /// The longest streak if `day` also qualified.
  func longest(with day: Day) -> Int {
    days.contains(day.ordinal) ? longest : max(longest, run(through: day))
  }

  /// The run of qualifying days ending on `day` or, if `day` does not qualify, on the day before.
  func current(endingOn day: Day) -> Int {
    var end = day.ordinal
    if end != last, !days.contains(end) { end -= 1 }
    if end == last { return Int(end - lastRunStart) + 1 }
    guard days.contains(end) else { return 0 }
    return Int(end - start(of: end)) + 1
  }
}

extension [DayQualifier] {
  /// The index of the qualifier of `screen` with `minimum` nanoseconds a day: a few are
  /// scanned (rules ask at every tick, and hashing a key with a name cost more), more are
  /// looked up in `slots`.
  func slot(screen: String?, minimum: Int64, _ slots: borrowing [DayQualifier.Key: Int]) -> Int? {
    guard count <= 8 else { return slots[.init(screen: screen, minimum: minimum)] }
    return firstIndex { $0.key.minimum == minimum && $0.key.screen == screen }
  }
}
