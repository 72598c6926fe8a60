// The 80-column text of a comparison: rules, points, levels and notifications of both packs side by side.

extension BalanceComparison {
  /// The days compared: 7 and 30, and the last day, those within the run (at most three).
  var marks: [Int] {
    let days = new.days
    var marks = [7, 30].filter { $0 < days }
    marks.append(days)
    return Array(marks.suffix(3))
  }

  /// The table, 80 columns: each section's figures old, new, and the difference of the two
  /// figures as shown (so `33.4% 34.6% +1.2` always adds up).
  package var table: String {
    var out: [String] = []
    out.append(BalanceReport.clip("dwell balance: \(old.pack) -> \(new.pack)", 80))
    out.append(
      BalanceReport.clip(
        "the same \(BalanceReport.group(new.users)) simulated users, \(new.days) days, seed \(new.seed)", 80))
    out.append("")
    out.append(header("RULE") + BalanceReport.lpad("DAY p50", 12))
    for id in ids {
      let a = row(old, id)
      let b = row(new, id)
      func day(_ value: BalanceReport.Spread?) -> String { value.map { BalanceReport.int($0.p50) } ?? "-" }
      let shares = marks.map { mark in
        (a.map { Self.share($0.curve, mark) }, b.map { Self.share($0.curve, mark) })
      }
      out.append(
        BalanceReport.pad(BalanceReport.clip(id, 19), 20) + shares.map(Self.shareCells).joined()
          + BalanceReport.lpad("\(day(a?.days))->\(day(b?.days))", 12))
    }
    out.append("share of users with it by day N (absent: the pack has no such rule); DIFF in")
    out.append("percentage points; DAY = day of the unlock (1 = install day), old->new.")
    out += pointsSection() + levelsSection() + personaLevelsSection() + notificationsSection()
    return out.joined(separator: "\n") + "\n"
  }

  private func header(_ title: String) -> String {
    BalanceReport.pad(title, 20)
      + marks.map { BalanceReport.lpad("D\($0) OLD", 8) + BalanceReport.lpad("NEW", 6) + BalanceReport.lpad("DIFF", 6) }
      .joined()
  }

  /// Median points per persona by day, old and new.
  private func pointsSection() -> [String] {
    var out = ["", header("POINTS p50")]
    for (index, persona) in new.personas.enumerated() {
      let before = index < old.personas.count ? old.personas[index] : nil
      let cells = marks.map { mark -> String in
        let a = before.flatMap { Self.points($0, old.checkpoints, mark) }
        let b = Self.points(persona, new.checkpoints, mark)
        let diff = (a != nil && b != nil) ? Self.signed((b ?? 0) - (a ?? 0)) : "-"
        return BalanceReport.lpad(a.map(String.init) ?? "-", 8) + BalanceReport.lpad(b.map(String.init) ?? "-", 6)
          + BalanceReport.lpad(diff, 6)
      }
      out.append(BalanceReport.pad(BalanceReport.clip(persona.name, 19), 20) + cells.joined())
    }
    return out
  }

  /// The share of users at each level by day, old and new (levels by name).
  private func levelsSection() -> [String] {
    let names = new.levels + old.levels.filter { !new.levels.contains($0) }
    guard !names.isEmpty else { return [] }
    var out = ["", header("LEVEL")]
    for name in names {
      let cells = marks.map { mark in (Self.level(old, name, mark), Self.level(new, name, mark)) }
      out.append(BalanceReport.pad(BalanceReport.clip(name, 19), 20) + cells.map(Self.shareCells).joined())
    }
    return out
  }

  /// Each persona's median level by day, old and new, as numbers in one list of levels
  /// (the new pack's, then the old one's others); the difference only when both packs
  /// have the same levels.
  private func personaLevelsSection() -> [String] {
    let names = new.levels + old.levels.filter { !new.levels.contains($0) }
    guard !names.isEmpty else { return [] }
    var out = ["", header("LEVEL p50")]
    func number(_ report: BalanceReport, _ persona: BalanceReport.PersonaRow?, _ day: Int) -> Int? {
      guard let persona, let c = report.checkpoints.firstIndex(of: day), c < persona.medianLevels.count,
        persona.medianLevels[c] < report.levels.count
      else { return nil }
      return names.firstIndex(of: report.levels[persona.medianLevels[c]]).map { $0 + 1 }
    }
    for (index, persona) in new.personas.enumerated() {
      let before = index < old.personas.count ? old.personas[index] : nil
      let cells = marks.map { mark -> String in
        let a = number(old, before, mark)
        let b = number(new, persona, mark)
        let diff = a != nil && b != nil && old.levels == new.levels ? Self.signed((b ?? 0) - (a ?? 0)) : "-"
        return BalanceReport.lpad(a.map(String.init) ?? "-", 8) + BalanceReport.lpad(b.map(String.init) ?? "-", 6)
          + BalanceReport.lpad(diff, 6)
      }
      out.append(BalanceReport.pad(BalanceReport.clip(persona.name, 19), 20) + cells.joined())
    }
    out += new.wrap(
      "each persona's median level, numbered: "
        + names.enumerated().map { "\($0.offset + 1) \($0.element)" }.joined(separator: ", "))
    return out
  }

  /// Notifications posted over the whole run, old and new.
  private func notificationsSection() -> [String] {
    let keys = Set(old.notifications.map(\.key) + new.notifications.map(\.key)).sorted()
    guard !keys.isEmpty else { return [] }
    var out = [
      "",
      BalanceReport.pad("NOTIFICATION (posted)", 44) + BalanceReport.lpad("OLD", 12) + BalanceReport.lpad("NEW", 12)
        + BalanceReport.lpad("DIFF", 12),
    ]
    for key in keys {
      let a = old.notifications.first { $0.key == key }?.fired ?? 0
      let b = new.notifications.first { $0.key == key }?.fired ?? 0
      out.append(
        BalanceReport.pad(BalanceReport.clip(key, 43), 44) + BalanceReport.lpad(BalanceReport.group(a), 12)
          + BalanceReport.lpad(BalanceReport.group(b), 12) + BalanceReport.lpad(Self.signed(b - a), 12))
    }
    return out
  }

  // MARK: Figures as shown

  /// A share in tenths of a percent, as the comparison shows it.
  static func tenths(_ share: Double) -> Int { Int((min(max(share, 0), 1) * 1000).rounded()) }

  /// `33.4%`.
  static func percent(_ tenths: Int) -> String { "\(tenths / 10).\(tenths % 10)%" }

  /// The difference of two shares as shown, in percentage points: `+1.2`, `-0.3`, `0`.
  static func difference(_ old: Double, _ new: Double) -> String {
    let points = tenths(new) - tenths(old)
    guard points != 0 else { return "0" }
    return (points > 0 ? "+" : "-") + "\(abs(points) / 10).\(abs(points) % 10)"
  }

  private static func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : "\(value)" }

  /// Old, new and difference cells of two shares (`nil`: absent from that pack).
  private static func shareCells(_ pair: (Double?, Double?)) -> String {
    let (a, b) = pair
    let diff = (a != nil && b != nil) ? difference(a ?? 0, b ?? 0) : "-"
    return BalanceReport.lpad(a.map { percent(tenths($0)) } ?? "absent", 8)
      + BalanceReport.lpad(b.map { percent(tenths($0)) } ?? "absent", 6) + BalanceReport.lpad(diff, 6)
  }

  private static func share(_ curve: [Double], _ day: Int) -> Double {
    day >= 1 && day <= curve.count ? curve[day - 1] : curve.last ?? 0
  }

  private static func points(_ persona: BalanceReport.PersonaRow, _ checkpoints: [Int], _ day: Int) -> Int? {
    checkpoints.firstIndex(of: day).flatMap { $0 < persona.medianPoints.count ? persona.medianPoints[$0] : nil }
  }

  private static func level(_ report: BalanceReport, _ name: String, _ day: Int) -> Double? {
    guard let index = report.levels.firstIndex(of: name), day >= 1, day <= report.levelShares.count else {
      return nil
    }
    return report.levelShares[day - 1][index]
  }
}
