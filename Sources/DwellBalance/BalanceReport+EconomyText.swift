// The economy's sections of the 80-column report: recurring earnings, progress of those without a rule, levels by persona.

extension BalanceReport {
  /// Recurring rules: earnings per user by day N and per period, and the spread of one
  /// user's earnings by the last day, for all users and then each persona.
  func earningsTable(_ marks: [String]) -> [String] {
    let recurring = rules.filter { $0.info.every != nil }
    guard !recurring.isEmpty else { return [] }
    let last = checkpoints.last ?? days
    var out = [
      "",
      Self.pad("EARNINGS per user", 27) + marks.map { Self.lpad($0, 6) }.joined() + Self.lpad("PER PERIOD", 15)
        + Self.lpad("D\(last) p10/50/90", 14),
    ]
    func line(_ name: String, _ earnings: [Double], _ spread: Spread?, every: String) -> String {
      let perPeriod = RuleRow.perPeriod(earnings.last ?? 0, days: days, every: every)
      let spread = spread.map { "\(Self.int($0.p10))/\(Self.int($0.p50))/\(Self.int($0.p90))" } ?? "-"
      return Self.pad(name, 27) + earnings.map { Self.lpad(Self.tenth($0), 6) }.joined()
        + Self.lpad(Self.tenth(perPeriod) + " a " + every, 15) + Self.lpad(spread, 14)
    }
    for row in recurring {
      let every = row.info.every ?? "day"
      out.append(line(Self.clip(row.info.id, 26), row.earnings, row.earningSpread, every: every))
      guard personas.count > 1 else { continue }
      for (p, persona) in personas.enumerated() where p < row.personaEarnings.count {
        out.append(
          line("  " + Self.clip(persona.name, 24), row.personaEarnings[p], row.personaEarningSpread[p], every: every))
      }
    }
    out.append("earnings of each recurring rule (every day, week, month) per simulated user,")
    out.append("by day N and per period of the run, then by persona; p10/50/90: one user's")
    out.append("earnings by the last day (a daily rule: the days it was earned on); its")
    out.append("share above is users with one or more.")
    return out
  }

  /// The median progress of the users without each rule earned once, by day N.
  func progressTable(_ marks: [String]) -> [String] {
    let shown = rules.filter { $0.info.every == nil && $0.progress.contains { $0 != nil } }
    guard !shown.isEmpty else { return [] }
    var out = ["", Self.pad("PROGRESS p50 without it", 27) + marks.map { Self.lpad($0, 6) }.joined()]
    for row in shown {
      out.append(
        Self.pad(Self.clip(row.info.id, 25), 25) + (row.progressByPlugin ? "p " : "  ")
          + row.progress.map { Self.lpad($0.map(Self.percent) ?? "-", 6) }.joined())
    }
    out.append("median progress (the app's progress(of:)) of the users who do not have the")
    out.append("rule by day N; -: every user has it; p: progress its plugin reports.")
    return out
  }

  /// Each persona's median level by day N.
  func personaLevelsTable() -> [String] {
    guard !levels.isEmpty, !personas.isEmpty else { return [] }
    var out = ["", Self.pad("PERSONA", 16) + checkpoints.map { Self.lpad("D\($0) level p50", 16) }.joined()]
    for persona in personas {
      out.append(
        Self.pad(Self.clip(persona.name, 15), 16)
          + persona.medianLevels.map { Self.lpad(Self.clip($0 < levels.count ? levels[$0] : "-", 15), 16) }.joined())
    }
    return out
  }
}

extension BalanceReport.RuleRow {
  /// `total` earnings over a run of `days` as earnings per period (`every` day, week or
  /// month: 1, 7 or 30.44 days), at least one period.
  static func perPeriod(_ total: Double, days: Int, every: String) -> Double {
    let length = every == "week" ? 7 : every == "month" ? 30.44 : 1
    return total / max(Double(days) / length, 1)
  }
}
