// Two versions of a pack on the same simulated users, matched by rule id: JSON and CSV (the text is +Table).
package import Dwell

/// Two balance reports of the same users (same personas, seed, users and days) through
/// two versions of a pack, matched by rule id.
package struct BalanceComparison: Sendable {
  package var old: BalanceReport
  package var new: BalanceReport

  package init(old: BalanceReport, new: BalanceReport) {
    self.old = old
    self.new = new
  }

  /// Rule ids: the new pack's order, then rules only the old one has.
  package var ids: [String] {
    let newIDs = new.rules.map(\.info.id)
    return newIDs + old.rules.map(\.info.id).filter { !newIDs.contains($0) }
  }

  /// Rule `id`'s row in `report`, if the pack has the rule.
  func row(_ report: BalanceReport, _ id: String) -> BalanceReport.RuleRow? {
    report.rules.first { $0.info.id == id }
  }

  /// Both reports and the differences, as JSON.
  package var json: JSONValue {
    .object([
      ("users", BalanceReport.number(new.users)), ("days", BalanceReport.number(new.days)),
      ("seed", .number(Double(new.seed), literal: String(new.seed))),
      ("checkpoints", .array(new.checkpoints.map(BalanceReport.number))),
      (
        "rules",
        .array(
          ids.map { id in
            let a = row(old, id)
            let b = row(new, id)
            var fields: [(key: String, value: JSONValue)] = [("id", .string(id))]
            fields.append(("old", side(a)))
            fields.append(("new", side(b)))
            if let a, let b {
              fields.append(("shareDifference", .array(zip(a.shares, b.shares).map { BalanceReport.number($1 - $0) })))
              if let da = a.days?.p50, let db = b.days?.p50 {
                fields.append(("medianDayDifference", BalanceReport.number(db - da)))
              }
            }
            return .object(fields)
          })
      ),
      ("old", old.json), ("new", new.json),
    ])
  }

  private func side(_ row: BalanceReport.RuleRow?) -> JSONValue {
    guard let row else { return .null }
    return .object([
      ("shares", .array(row.shares.map(BalanceReport.number))),
      ("medianDay", row.days.map { BalanceReport.number($0.p50) } ?? .null),
      ("medianActiveMinutes", row.minutes.map { BalanceReport.number($0.p50) } ?? .null),
    ])
  }

  /// One row per rule: shares by checkpoint and median day in each version.
  package var csv: String {
    var header = ["rule"]
    for side in ["old", "new"] {
      header += new.checkpoints.map { "\(side)_share_day\($0)" } + ["\(side)_day_p50", "\(side)_minutes_p50"]
    }
    var lines = [header.joined(separator: ",")]
    for id in ids {
      var fields = [BalanceReport.field(id)]
      for report in [old, new] {
        let r = row(report, id)
        let shares = r?.shares ?? []
        fields += new.checkpoints.indices.map { $0 < shares.count ? BalanceReport.text(shares[$0]) : "" }
        fields += [
          r?.days.map { BalanceReport.text($0.p50) } ?? "", r?.minutes.map { BalanceReport.text($0.p50) } ?? "",
        ]
      }
      lines.append(fields.joined(separator: ","))
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

extension BalanceReport {
  static func text(_ value: Double) -> String { decimal((value * 10_000).rounded()) }
}
