internal import Dwell
internal import Foundation

/// The HTML report's tables of actions (each action's count per local day) and of the
/// earnings of recurring rules (rule, period, instant, points).
extension HTMLReport {
  /// Most days shown as columns of the actions table: the latest.
  static let actionDays = 31

  /// A row per action, a column per day with any action (the latest 31), and the total.
  func actions() -> String {
    let days = Array(Set(report.actions.values.flatMap(\.days.keys)).sorted().suffix(Self.actionDays))
    let head = days.map { "<th>\($0.description.dropFirst(5))</th>" }.joined()
    let rows = report.actions.sorted { $0.key < $1.key }.map { name, action in
      let cells = days.map { "<td>\(action.days[$0].map(String.init) ?? "")</td>" }.joined()
      return "<tr><td>\(Self.escape(name))</td>\(cells)<td><b>\(action.count)</b></td></tr>"
    }
    return "<table><tr><th>Action</th>\(head)<th>All</th></tr>\(rows.joined())</table>"
  }

  /// Every earning of a recurring rule, oldest first.
  func earnings() -> String {
    let formatter = ISO8601DateFormatter()
    let rows = report.earnings.map { record in
      "<tr><td>★ \(Self.escape(record.rule))</td><td>\(Self.escape(record.period ?? ""))</td>"
        + "<td>\(formatter.string(from: record.wall.date))</td>"
        + "<td>\(record.points > 0 ? "+\(record.points) points" : "")</td></tr>"
    }
    return "<table><tr><th>Rule</th><th>Period</th><th>Earned at (UTC)</th><th></th></tr>\(rows.joined())</table>"
  }
}
