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

  init(key: Key) { self.key = key }

  /// Whether `nanos` on one day is enough.
  func qualifies(_ nanos: Int64) -> Bool { key.minimum > 0 ? nanos >= key.minimum : nanos > 0 }

  var count: Int { days.count }

  mutating func insert(_ day: Day) {
    guard days.insert(day.ordinal).inserted else { return }
    longest = max(longest, run(through: day))
  }

  /// The length of the run of qualifying days through `day`, counting `day` itself.
  func run(through day: Day) -> Int {
    var left = 0
    while days.contains(day.ordinal - Int32(left) - 1) { left += 1 }
    var right = 0
    while days.contains(day.ordinal + Int32(right) + 1) { right += 1 }
    return left + 1 + right
  }

  /// The longest streak if `day` also qualified.
  func longest(with day: Day) -> Int {
    days.contains(day.ordinal) ? longest : max(longest, run(through: day))
  }

  /// The run of qualifying days ending on `day` or, if `day` does not qualify, on the day before.
  func current(endingOn day: Day) -> Int {
    var end = day.ordinal
    if !days.contains(end) { end -= 1 }
    var n = 0
    while days.contains(end - Int32(n)) { n += 1 }
    return n
  }
}
