/// The usage figures at one instant, as scripted checks see them.
///
/// Seconds are `Double`s; a snapshot of figures, cheap to make and not kept past the call.
package struct UsageFigures: Sendable {
  /// Figures for one screen.
  package struct Screen: Sendable {
    /// All-time seconds on the screen.
    package var seconds: Double
    /// Visits to the screen.
    package var visits: Int
    /// Seconds on the screen today (local day).
    package var todaySeconds: Double
  }

  /// All-time app seconds.
  package let appSeconds: Double
  /// Sessions so far.
  package let sessions: Int
  /// Days with app time above zero.
  package let activeDays: Int
  /// The longest run of consecutive active days.
  package let longestStreak: Int
  /// The run of active days ending today (or yesterday, if today has no time yet).
  package let currentStreak: Int
  /// App seconds today.
  package let todaySeconds: Double
  /// The local date now.
  package let today: Day
  /// The local hour now, 0-23.
  package let hour: Int
  /// The monotonic instant of the evaluation.
  package let instant: MonotonicInstant
  /// Changes whenever any figure changes: equal revisions at one instant mean equal figures.
  package let revision: UInt64

  let screens: [ScreenUsage]
  let screenIndex: [String: Int32]
  /// Actions by name.
  var actions: [String: ActionTally] = [:]
  /// The app's time by day and the sessions begun on each day, for the period's figures.
  var app = Tally()
  var sessionDays: [Day: Int] = [:]
  /// In a recurring rule's check, the days of the current period (within the rule's
  /// dates) whose figures `period…` count; `nil` elsewhere.
  package var period: ClosedRange<Day>?

  /// The named action's total count and its count today (zeros for one never recorded).
  package func action(_ name: String) -> (count: Int, todayCount: Int) {
    guard let tally = actions[name] else { return (0, 0) }
    return (tally.count, tally.days[today] ?? 0)
  }

  /// Figures for the named screen (zeros for a screen never seen).
  package func screen(_ name: String) -> Screen {
    var place: Int32 = -1
    return screen(name, place: &place)
  }

  /// Figures for the named screen, with `place` where it was found last time (any value at
  /// first), updated: a place is checked by name, so a stale one costs only the lookup.
  package func screen(_ name: String, place: inout Int32) -> Screen {
    if place < 0 || Int(place) >= screens.count || screens[Int(place)].name != name {
      guard let index = screenIndex[name] else { return Screen(seconds: 0, visits: 0, todaySeconds: 0) }
      place = index
    }
    return Self.figures(of: screens[Int(place)], today: today)
  }

  /// ``screen(_:place:)`` for the Lua runtime's `u.screen(name)` tables, read several times
  /// a tick: through a pointer to the figures (none of them copied), the name given as its
  /// UTF-8 bytes and made a `String` only when `place` is not that screen's (the same figures
  /// and places as ``screen(_:place:)``: a name equal but for its bytes is found by name).
  package static func screen(
    in usage: UnsafePointer<UsageFigures>, named name: UnsafeRawBufferPointer, place: inout Int32
  ) -> Screen {
    if place < 0 || Int(place) >= usage.pointee.screens.count
      || !usage.pointee.screens[Int(place)].name.utf8.elementsEqual(name)
    {
      guard let index = usage.pointee.screenIndex[String(decoding: name, as: UTF8.self)] else {
        return Screen(seconds: 0, visits: 0, todaySeconds: 0)
      }
      place = index
    }
    return figures(of: usage.pointee.screens[Int(place)], today: usage.pointee.today)
  }

  private static func figures(of usage: borrowing ScreenUsage, today: Day) -> Screen {
    Screen(
      seconds: Double(usage.tally.nanos) / 1e9, visits: usage.visits,
      todaySeconds: Double(usage.tally.nanos(on: today)) / 1e9)
  }
}
