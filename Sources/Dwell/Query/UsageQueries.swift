/// The questions an app asks about usage, answered from memory: how long, how often, which
/// days in a row, which rules are unlocked and how far the others are. ``Tracker`` answers
/// them, and so does anything that passes on a tracker's ``UsageSource`` (``UsageModel``,
/// which makes SwiftUI views that ask update as time accrues).
///
/// Before the tracker's store is open, every query answers zero, empty or `nil`. Queries
/// never run a script, never wait for one running on the tracker's queue, and never wait
/// for the disk: they read the counts the queue last published plus the events recorded
/// since.
///
/// ```swift
/// func header(_ usage: some UsageQueries) -> String {
///   "\(usage.time(.app, in: .today)) today, \(usage.currentStreak()) days in a row"
/// }
/// ```
public protocol UsageQueries {
  /// What answers the queries: a type that wraps a tracker returns the tracker's
  /// ``Tracker/usageSource``.
  var usageSource: UsageSource { get }
}

extension Engine: UsageQueries {
  /// The engine itself: tests and the other modules of the package ask an engine directly.
  package var usageSource: UsageSource { UsageSource(self) }
}

extension UsageQueries {
  /// Time accrued by `subject` in `period`, including the visit still open.
  ///
  /// ```swift
  /// tracker.time(.screen("Lessons"), in: .today)   // 12 min
  /// ```
  /// - Complexity: O(1) for `.allTime` and `.today`; O(days) for other periods. Memory only.
  public func time(_ subject: Subject = .app, in period: Period = .allTime) -> Duration {
    let name = subject.name
    return read(.zero) { accountant, _, now in
      let today = accountant.span(at: now).day
      var total: Int64 = 0
      accountant.projected(name, to: now) { day, nanos in if period.contains(day, today: today) { total += nanos } }
      guard let tally = accountant.tally(name) else { return .zero }
      // Saturating: the stored figures are bounded per day, not their sum (Store+Values).
      switch period {
      case .allTime: total.addSaturating(tally.nanos)
      case .today: total.addSaturating(tally.nanos(on: today))
      case .day(let day): total.addSaturating(tally.nanos(on: day))
      default:
        for (day, nanos) in tally.days where period.contains(day, today: today) { total.addSaturating(nanos) }
      }
      return .nanoseconds(total)
    }
  }

  /// Visits of a screen in `period`, counted on the day each began (a visit open across
  /// midnight counts on the day before).
  ///
  /// ```swift
  /// engine.visits("Quiz", in: .lastDays(7))   // 12
  /// ```
  /// - Complexity: O(1) for `.allTime`, `.today`, `.yesterday` and `.day`; O(days) for
  ///   other periods. Memory only.
  public func visits(_ screen: String, in period: Period = .allTime) -> Int {
    let screen = ScreenName.clean(screen)
    return read(0) { accountant, _, now in
      guard let index = accountant.screenIndex[screen] else { return 0 }
      let today = accountant.span(at: now).day
      let days = accountant.screens[Int(index)].tally.visitDays
      switch period {
      case .allTime: return accountant.screens[Int(index)].visits
      case .today: return days[today] ?? 0
      case .yesterday: return days[today.adding(days: -1)] ?? 0
      case .day(let day): return days[day] ?? 0
      default:
        // Saturating: a damaged store's counts must not trap.
        return days.reduce(0) { total, entry in
          guard period.contains(entry.key, today: today) else { return total }
          let (sum, overflow) = total.addingReportingOverflow(entry.value)
          return overflow ? .max : sum
        }
      }
    }
  }

  /// Sessions so far.
  public var sessions: Int { read(0) { accountant, _, _ in accountant.sessions } }

  /// The local day now (`nil` before the store is open).
  public var today: Day? { engine?.reading { accountant, _, now in accountant.span(at: now).day } }

  /// Time per day for the last `days` days, oldest first, today last (for charts). `days` of
  /// zero or less gives no day; more than 100,000 gives 100,000 (about 274 years).
  public func series(_ subject: Subject = .app, lastDays days: Int) -> [(day: Day, time: Duration)] {
    let name = subject.name
    return read([]) { accountant, _, now in
      let today = accountant.span(at: now).day
      let tally = accountant.tally(name) ?? Tally()
      var extra: [Day: Int64] = [:]
      accountant.projected(name, to: now) { day, nanos in extra[day, default: 0].addSaturating(nanos) }
      let count = max(0, min(days, 100_000))
      return (0..<count).reversed().map { back in
        let day = today.adding(days: -Int32(back))
        var nanos = tally.nanos(on: day)
        nanos.addSaturating(extra[day] ?? 0)
        return (day, .nanoseconds(nanos))
      }
    }
  }

  /// Days on which `subject` reached `minimumPerDay` (any time above zero by default).
  public func activeDays(_ subject: Subject = .app, minimumPerDay: Duration = .zero, in period: Period = .allTime)
    -> Int
  {
    guard let today else { return 0 }
    return qualifyingDays(subject, minimumPerDay).filter { period.contains($0, today: today) }.count
  }

  /// The run of qualifying days ending today, or yesterday if today does not qualify yet.
  public func currentStreak(_ subject: Subject = .app, minimumPerDay: Duration = .zero) -> Int {
    if let streaks = appStreaks(subject, minimumPerDay) { return streaks.current }
    guard let today else { return 0 }
    let days = Set(qualifyingDays(subject, minimumPerDay).map(\.ordinal))
    var end = today.ordinal
    if !days.contains(end) { end -= 1 }
    var run = 0
    while days.contains(end - Int32(run)) { run += 1 }
    return run
  }

  /// The longest run of consecutive qualifying days.
  public func longestStreak(_ subject: Subject = .app, minimumPerDay: Duration = .zero) -> Int {
    if let streaks = appStreaks(subject, minimumPerDay) { return streaks.longest }
    var longest = 0
    var run = 0
    var previous: Int32?
    for day in qualifyingDays(subject, minimumPerDay) {
      run = previous == day.ordinal - 1 ? run + 1 : 1
      longest = max(longest, run)
      previous = day.ordinal
    }
    return longest
  }

  /// Whether the rule with this id is unlocked.
  public func isUnlocked(_ id: String) -> Bool { read(false) { _, book, _ in book.unlocked[id] != nil } }

  /// Points so far: those of unlocked rules and of every earning of a recurring rule, plus
  /// those awarded by plugins (as the report counts them). Memory only.
  public var points: Int {
    read(0) { accountant, book, _ in
      var total = accountant.points
      for unlock in book.unlocked.values { total.addSaturating(unlock.points) }
      for earning in book.earnings { total.addSaturating(earning.points) }
      return total
    }
  }

  /// Every unlock so far, by rule id, with the points the user was awarded and the title of
  /// the rule in force.
  public var unlocks: [String: UnlockRecord] {
    read([:]) { _, book, _ in
      let titles = Dictionary(book.rules.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
      return book.unlocked.mapValues { record in
        var record = record
        if record.title == nil, let title = titles[record.rule] { record.title = title }
        return record
      }
    }
  }

  /// The app's streaks from the rule book's qualifier of active days, which keeps its runs
  /// as days are credited: O(1), where a pass over the days costs milliseconds after
  /// years of use. `nil` (use the pass) for other subjects or minimums, or when more than
  /// today or yesterday is not in the qualifier yet.
  private func appStreaks(_ subject: Subject, _ minimum: Duration) -> (longest: Int, current: Int)? {
    guard subject.name == nil, minimum == .zero else { return nil }
    return read(nil) { accountant, book, now -> (longest: Int, current: Int)? in
      let qualifier = book.appDays
      let today = accountant.span(at: now).day
      let yesterday = today.adding(days: -1)
      var missing = Set(accountant.pendingCreditedDays.filter { accountant.app.nanos(on: $0) > 0 })
      accountant.projected(nil, to: now) { day, nanos in if nanos > 0 { missing.insert(day) } }
      missing = missing.filter { !qualifier.days.contains($0.ordinal) }
      func runEnding(on day: Day) -> Int { qualifier.days.contains(day.ordinal) ? qualifier.current(endingOn: day) : 0 }
      switch missing.first {
      case nil where missing.isEmpty:
        return (qualifier.longest, qualifier.current(endingOn: today))
      case today? where missing.count == 1:
        return (qualifier.longest(with: today), runEnding(on: yesterday) + 1)
      case yesterday? where missing.count == 1 && !qualifier.days.contains(today.ordinal):
        return (qualifier.longest(with: yesterday), runEnding(on: yesterday.adding(days: -1)) + 1)
      default:
        return nil
      }
    }
  }

  /// Sorted days on which `subject` reached the minimum, counting time still open.
  private func qualifyingDays(_ subject: Subject, _ minimum: Duration) -> [Day] {
    let name = subject.name
    return read([]) { accountant, _, now in
      var days = accountant.tally(name)?.days ?? [:]
      accountant.projected(name, to: now) { day, nanos in days[day, default: 0] += nanos }
      let need = minimum.nanoseconds
      return days.filter { need > 0 ? $0.value >= need : $0.value > 0 }.keys.sorted()
    }
  }

  /// The progress of every rule in force, in order ("18 of 30 min in Lessons").
  public func progress() -> [(rule: Rule, progress: RuleProgress)] {
    engine?.withState { accountant, book in book.progress(at: accountant.cursor, &accountant) } ?? []
  }

  /// The progress of one rule, or `nil` for an unknown id. A recurring rule's is the current
  /// period's: a daily goal is a rule with `every: .day`, its progress "4 min of 10 min in
  /// Lessons today, resets at midnight", ``RuleProgress/isUnlocked`` once earned today.
  public func progress(of id: String) -> RuleProgress? {
    progress().first { $0.rule.id == id }?.progress
  }

  /// The engine that answers; `nil` until a tracker's store is open.
  private var engine: Engine? { usageSource.engine }

  /// Reads the engine's state, or answers `empty` when there is no engine yet.
  private func read<T>(_ empty: T, _ body: (inout Accountant, RuleBook, Int64) -> T) -> T {
    engine?.reading(body) ?? empty
  }
}
