// Two versions of a pack on the same simulated users: each rule's share and median time, side by side.
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

  /// The table, 80 columns.
  package var table: String {
    var out: [String] = []
    out.append(BalanceReport.clip("dwell balance: \(old.pack) -> \(new.pack)", 80))
    out.append(
      BalanceReport.clip(
        "the same \(BalanceReport.group(new.users)) simulated users, \(new.days) days, seed \(new.seed)", 80))
    out.append("")
    let last = "D\(new.days)"
    out.append(
      BalanceReport.pad("RULE", 26) + BalanceReport.lpad(last + " OLD", 9) + BalanceReport.lpad("NEW", 6)
        + BalanceReport.lpad("DIFF", 7) + BalanceReport.lpad("DAY p50 OLD", 13) + BalanceReport.lpad("NEW", 6)
        + BalanceReport.lpad("MIN OLD->NEW", 13))
    for id in ids {
      let a = row(old, id)
      let b = row(new, id)
      let shareA = a?.shares.last
      let shareB = b?.shares.last
      let diff = (shareA != nil && shareB != nil) ? Self.signedPoints((shareB ?? 0) - (shareA ?? 0)) : "-"
      func share(_ value: Double?) -> String { value.map(BalanceReport.percent) ?? "absent" }
      func day(_ value: BalanceReport.Spread?) -> String { value.map { BalanceReport.int($0.p50) } ?? "-" }
      let minutes = "\(day(a?.minutes))->\(day(b?.minutes))"
      out.append(
        BalanceReport.pad(BalanceReport.clip(id, 25), 26) + BalanceReport.lpad(share(shareA), 9)
          + BalanceReport.lpad(share(shareB), 6) + BalanceReport.lpad(diff, 7)
          + BalanceReport.lpad(day(a?.days), 13) + BalanceReport.lpad(day(b?.days), 6)
          + BalanceReport.lpad(minutes, 13))
    }
    out.append("DIFF in percentage points; DAY = day of the unlock (1 = install day); MIN =")
    out.append("active minutes before it (old->new), among users who unlocked.")
    return out.joined(separator: "\n") + "\n"
  }

  static func signedPoints(_ difference: Double) -> String {
    let points = Int((difference * 100).rounded())
    return points > 0 ? "+\(points)" : points == 0 ? "0" : "\(points)"
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
