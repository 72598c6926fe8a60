internal import Dwell
internal import DwellLua
internal import Foundation

/// Actions and recurring rules in the simulator: `do NAME [COUNT]` records an action, and
/// the view's words for action counts and for what each recurring rule has earned.
extension Simulator {
  /// The most one `do` records: what the engine counts of one action event.
  static let maximumActionCount = 1_000_000

  /// `do NAME [COUNT]`: the user did `NAME` (a quiz finished) `COUNT` times, now.
  func doCommand(_ args: [String]) throws(CommandError) -> String {
    try requireRunning()
    guard let name = args.first, !name.isEmpty, args.count <= 2 else {
      throw CommandError("do takes an action and a count: do quiz_done, do quiz_done 3, do \"page read\" 10")
    }
    var count = 1
    if args.count == 2 {
      guard let n = Int(args[1]), n >= 1, n <= Self.maximumActionCount else {
        throw CommandError(
          "do: the count is a whole number from 1 to \(Self.maximumActionCount), not '\(args[1])'; "
            + "write do \(name) 3")
      }
      count = n
    }
    // A name the rules spell only in another case counts for none of them: said, not run.
    let named = Set((source?.rules ?? []).flatMap(\.condition.actionNames))
    if !named.contains(name), let meant = named.sorted().first(where: { $0.lowercased() == name.lowercased() }) {
      throw CommandError(
        "the rules name the action '\(meant)', not '\(name)' (action names are case-sensitive); "
          + "write do \(meant.contains(" ") ? "\"\(meant)\"" : meant)\(count == 1 ? "" : " \(count)")")
    }
    record(.action(name, count: count))
    let total = engine?.report().actions[name]?.count ?? count
    note("Did \(name)\(count == 1 ? "" : " × \(count)") (\(total) in all)", .event)
    return ""
  }

  /// "Actions today/all: quiz_done 2/5 · page_read 0/10", the busiest first (at most five),
  /// or `nil` when none was recorded.
  func actionsLine(_ report: UsageReport, today: Day) -> String? {
    guard !report.actions.isEmpty else { return nil }
    let busiest = report.actions.sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }.prefix(5)
    let more = report.actions.count > 5 ? " · \(report.actions.count - 5) more" : ""
    return "Actions today/all: "
      + busiest.map { name, action in "\(name) \(action.days[today] ?? 0)/\(action.count)" }.joined(separator: " · ")
      + more
  }

  /// The current period in words: "today", "this week", "this month".
  static func current(_ period: CalendarPeriod) -> String {
    switch period {
    case .day: return "today"
    case .week: return "this week"
    case .month: return "this month"
    }
  }

  /// What a recurring rule has earned, in words: " · earned 3 times (+30 points)", or "".
  static func earnedWords(_ rule: Rule, _ earnings: [UnlockRecord]) -> String {
    guard rule.every != nil else { return "" }
    let mine = earnings.filter { $0.rule == rule.id }
    guard !mine.isEmpty else { return " · not earned yet" }
    var points = 0
    for earning in mine { points.addSaturating(earning.points) }
    return " · earned \(mine.count == 1 ? "once" : "\(mine.count) times")" + (points > 0 ? " (+\(points) points)" : "")
  }
}

extension Int {
  /// Adds without a trap: a sum of a store's points stops at `Int.max`.
  fileprivate mutating func addSaturating(_ other: Int) {
    let (sum, overflow) = addingReportingOverflow(other)
    self = overflow ? (other > 0 ? .max : .min) : sum
  }
}
