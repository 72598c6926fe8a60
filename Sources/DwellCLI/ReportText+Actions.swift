internal import Dwell
internal import Foundation

/// The terminal report's actions (each action's count on the last days) and the earnings
/// of recurring rules (rule, period, instant, points).
extension ReportText {
  /// Most earnings listed: the latest.
  static let earningsShown = 20

  /// "Actions, last N days": each action's total, then its count on each of the last
  /// `days` days with any (ending at `last`).
  static func actionLines(_ report: UsageReport, last: Day?, days: Int, style: Style) -> [String] {
    guard !report.actions.isEmpty else { return [] }
    let end = last ?? report.actions.values.flatMap(\.days.keys).max() ?? Day(ordinal: 0)
    let first = end.adding(days: -Int32(max(0, days - 1)))
    var lines = [style.bold("Actions, last \(days) day\(days == 1 ? "" : "s")")]
    let names = report.actions.keys.sorted()
    let nameWidth = min(28, names.map { escapingControls($0).count }.max() ?? 0)
    for name in names {
      guard let action = report.actions[name] else { continue }
      let shown = escapingControls(name)
      let label = shown.count > nameWidth ? String(shown.prefix(nameWidth - 1)) + "…" : shown
      let recent = action.days.filter { $0.key >= first && $0.key <= end }.sorted { $0.key < $1.key }
      var line =
        "  " + label.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  \(action.count) in all"
      if !recent.isEmpty { line += " · " + recent.map { "\($0.key) \($0.value)" }.joined(separator: " · ") }
      lines.append(line.count > style.width ? String(line.prefix(style.width - 1)) + "…" : line)
    }
    return lines
  }

  /// "Recurring rules earned": one line an earning, oldest first (the latest 20).
  static func earningLines(_ report: UsageReport, unlockTime: UsageReport.UnlockTime, style: Style) -> [String] {
    guard !report.earnings.isEmpty else { return [] }
    let count = report.earnings.count
    var lines = [style.bold("Recurring rules earned") + " (\(count) time\(count == 1 ? "" : "s"))"]
    if count > earningsShown { lines.append(style.dim("  … \(count - earningsShown) earlier")) }
    let shown = report.earnings.suffix(earningsShown)
    let formatter = ISO8601DateFormatter()
    let idWidth = min(28, shown.map { escapingControls($0.rule).count }.max() ?? 0)
    for record in shown {
      let id = escapingControls(record.rule)
      let when =
        unlockTime == .monotonicSeconds
        ? "t=\(String(format: "%.3f", record.mono.seconds))" : formatter.string(from: record.wall.date)
      let points = record.points > 0 ? "  +\(record.points) points" : ""
      lines.append(
        "  " + style.green("★") + " " + id.padding(toLength: max(idWidth, id.count), withPad: " ", startingAt: 0)
          + "  for \(escapingControls(record.period ?? ""))  at \(when)\(points)")
    }
    return lines
  }
}
