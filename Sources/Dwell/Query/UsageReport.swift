/// Usage figures at one instant: the report of <doc:Accounting>.
package struct UsageReport: Sendable, Equatable {
  /// Figures of one subject (the app, or one screen).
  package struct Figures: Sendable, Equatable {
    /// All-time accrued time.
    package var time: Duration
    /// Accrued time per local day, only days above zero.
    package var days: [Day: Duration]
    /// Visits (screens only).
    package var visits: Int
  }

  /// The whole app.
  package var app: Figures
  /// Sessions so far.
  package var sessions: Int
  /// Days with app time above zero.
  package var activeDays: Int
  /// Longest run of consecutive active days.
  package var longestStreak: Int
  /// Every screen that appeared at least once, by name.
  package var screens: [String: Figures]
  /// Every unlocked rule, by id.
  package var unlocks: [String: UnlockRecord]
  /// Points: those of unlocked rules and earnings plus those awarded by plugins.
  package var points: Int
  /// Each action recorded: its total count and its count per local day (days above zero).
  package var actions: [String: (count: Int, days: [Day: Int])] = [:]
  /// Every earning of a recurring rule, oldest first.
  package var earnings: [UnlockRecord] = []

  package static func == (a: UsageReport, b: UsageReport) -> Bool {
    a.app == b.app && a.sessions == b.sessions && a.activeDays == b.activeDays && a.longestStreak == b.longestStreak
      && a.screens == b.screens && a.unlocks == b.unlocks && a.points == b.points && a.earnings == b.earnings
      && a.actions.mapValues(\.count) == b.actions.mapValues(\.count)
      && a.actions.mapValues(\.days) == b.actions.mapValues(\.days)
  }

  init(accountant: Accountant, book: RuleBook) {
    self.init(
      app: accountant.app, sessions: accountant.sessions,
      screens: accountant.screens.map { ($0.name, $0.tally, $0.visits) },
      unlocks: Array(book.unlocked.values), awarded: accountant.points)
    add(actions: accountant.actions, earnings: book.earnings)
  }

  /// Adds the actions and earnings (and the earnings' points).
  private mutating func add(actions: [String: ActionTally], earnings: [UnlockRecord]) {
    for (name, tally) in actions where tally.count > 0 {
      self.actions[name] = (tally.count, tally.days.filter { $0.value > 0 })
    }
    self.earnings = earnings
    for earning in earnings { points.addSaturating(earning.points) }
  }

  init(
    app: Tally, sessions: Int, screens: [(name: String, tally: Tally, visits: Int)],
    unlocks: [UnlockRecord], awarded: Int
  ) {
    func figures(_ tally: Tally, _ visits: Int) -> Figures {
      var days: [Day: Duration] = [:]
      for (day, nanos) in tally.days where nanos > 0 { days[day] = .nanoseconds(nanos) }
      return Figures(time: .nanoseconds(tally.nanos), days: days, visits: visits)
    }
    self.app = figures(app, 0)
    self.sessions = sessions
    let active = app.days.filter { $0.value > 0 }.keys.map(\.ordinal).sorted()
    activeDays = active.count
    var longest = 0
    var run = 0
    var previous: Int32?
    for day in active {
      run = previous == day - 1 ? run + 1 : 1
      longest = max(longest, run)
      previous = day
    }
    longestStreak = longest
    var byName: [String: Figures] = [:]
    // A screen group the rules measure (ScreenGroup) is no screen of the app's.
    for screen in screens where (screen.visits > 0 || screen.tally.nanos > 0) && !ScreenGroup.isGroup(screen.name) {
      byName[screen.name] = figures(screen.tally, screen.visits)
    }
    self.screens = byName
    var unlocked: [String: UnlockRecord] = [:]
    for record in unlocks { unlocked[record.rule] = record }
    self.unlocks = unlocked
    // Saturating, as every sum over a store's figures.
    points = unlocked.values.reduce(awarded) { total, unlock in
      var total = total
      total.addSaturating(unlock.points)
      return total
    }
  }

  /// The report of what a store holds (committed data only).
  package init(store: Store) throws {
    let usage = try store.load()
    self.init(
      app: usage.app, sessions: usage.sessions, screens: usage.screens, unlocks: usage.unlocks,
      awarded: usage.points)
    add(actions: usage.actions, earnings: usage.earnings)
  }
}
