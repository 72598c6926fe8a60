// A balance report as JSON and CSV, for notebooks: every figure, with fixed formatting.
package import Dwell
internal import Foundation

extension BalanceReport {
  /// The report as JSON (pretty, keys in a fixed order, numbers rounded to 4 decimals).
  package var json: JSONValue {
    .object([
      ("pack", .string(pack)), ("users", Self.number(users)), ("days", Self.number(days)),
      ("seed", .number(Double(seed), literal: String(seed))),
      ("checkpoints", .array(checkpoints.map(Self.number))),
      ("rules", .array(rules.map(ruleJSON))),
      (
        "personas",
        .array(
          personas.map { persona in
            .object([
              ("name", .string(persona.name)), ("users", Self.number(persona.users)),
              ("medianPoints", .array(persona.medianPoints.map(Self.number))),
              ("medianActiveMinutes", Self.number(persona.medianMinutes)),
              ("retention", .array(persona.retention.map(Self.number))),
              ("medianLevels", .array(persona.medianLevels.map { .string($0 < levels.count ? levels[$0] : "") })),
              ("levelShares", .array(persona.levelShares.map { .array($0.map(Self.number)) })),
            ])
          })
      ),
      ("levels", .array(levels.map { .string($0) })),
      ("levelShares", .array(levelShares.map { .array($0.map(Self.number)) })),
      ("retention", .array(retention.map(Self.number))),
      (
        "pointsBySource",
        .array(
          pointsBySource.map { .object([("source", .string($0.source)), ("perUser", Self.number($0.perUser))]) })
      ),
      (
        "notifications",
        .array(
          notifications.map {
            .object([("key", .string($0.key)), ("posted", Self.number($0.fired)), ("users", Self.number($0.users))])
          })
      ),
      ("neverUnlocked", .array(rules.filter(\.never).map { .string($0.info.id) })),
      ("everyoneOnDayOne", .array(rules.filter(\.everyoneOnDayOne).map { .string($0.info.id) })),
      ("scriptErrors", Self.number(scriptErrors)),
      ("scriptErrorMessages", .array(errorMessages.map { .string($0) })),
    ])
  }

  private func ruleJSON(_ row: RuleRow) -> JSONValue {
    var fields: [(key: String, value: JSONValue)] = [("id", .string(row.info.id))]
    if let title = row.info.title { fields.append(("title", .string(title))) }
    if let achievement = row.info.achievement { fields.append(("achievement", .string(achievement))) }
    if let tier = row.info.tier { fields.append(("tier", .string(tier))) }
    fields += [
      ("points", Self.number(row.info.points)), ("scripted", .bool(row.info.scripted)),
      ("shares", .array(row.shares.map(Self.number))),
      ("days", Self.spread(row.days)), ("activeMinutes", Self.spread(row.minutes)),
      (
        "personas",
        .array(
          personas.indices.map { p in
            .object([
              ("name", .string(personas[p].name)), ("shares", .array(row.personaShares[p].map(Self.number))),
              ("medianDay", row.personaDays[p].map(Self.number) ?? .null),
              ("medianActiveMinutes", row.personaMinutes[p].map(Self.number) ?? .null),
            ])
          })
      ),
      ("curve", .array(row.curve.map(Self.number))),
    ]
    if let every = row.info.every {
      fields += [
        ("every", .string(every)), ("earningsPerUser", .array(row.earnings.map(Self.number))),
        ("earningsPerUserPerPeriod", Self.number(row.earningsPerPeriod ?? 0)),
        ("earningsByDay", .array(row.earningsByDay.map(Self.number))),
        ("earningsSpread", Self.spread(row.earningSpread)),
        (
          "earningsByPersona",
          .array(
            personas.indices.filter { $0 < row.personaEarnings.count }.map { p in
              .object([
                ("name", .string(personas[p].name)),
                ("perUser", .array(row.personaEarnings[p].map(Self.number))),
                (
                  "perUserPerPeriod",
                  Self.number(RuleRow.perPeriod(row.personaEarnings[p].last ?? 0, days: days, every: every))
                ),
                ("spread", Self.spread(row.personaEarningSpread[p])),
              ])
            })
        ),
      ]
    } else {
      fields += [
        ("progressWithoutIt", .array(row.progress.map { $0.map(Self.number) ?? .null })),
        ("progressByPlugin", .bool(row.progressByPlugin)),
      ]
    }
    return .object(fields)
  }

  private static func spread(_ spread: Spread?) -> JSONValue {
    guard let spread else { return .null }
    return .object([("p10", number(spread.p10)), ("p50", number(spread.p50)), ("p90", number(spread.p90))])
  }

  static func number(_ value: Int) -> JSONValue { .number(Double(value), literal: String(value)) }

  /// A number with at most 4 decimals, written the same way on every run.
  static func number(_ value: Double) -> JSONValue {
    let scaled = (value * 10_000).rounded()
    return .number(scaled / 10_000, literal: decimal(scaled))
  }

  /// `scaled` / 10,000 as text without a trailing zero.
  static func decimal(_ scaled: Double) -> String {
    let whole = Int64(scaled)
    let sign = whole < 0 ? "-" : ""
    let magnitude = abs(whole)
    var fraction = String(magnitude % 10_000)
    fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return sign + String(magnitude / 10_000) + (fraction.isEmpty ? "" : "." + fraction)
  }

  /// One row per rule and persona ("all" first): shares by checkpoint, percentiles, and the
  /// economy's figures: a recurring rule's earnings per user by checkpoint and the spread of
  /// one user's by the last day (empty for a rule earned once), a rule earned once's median
  /// progress of the users without it by checkpoint (empty for a recurring rule, or where
  /// no progress is known).
  package var csv: String {
    var header = ["rule", "title", "achievement", "tier", "points", "persona", "users"]
    header += checkpoints.map { "share_day\($0)" }
    header += ["day_p10", "day_p50", "day_p90", "minutes_p10", "minutes_p50", "minutes_p90"]
    header += checkpoints.map { "earnings_day\($0)" } + ["earnings_p10", "earnings_p50", "earnings_p90"]
    header += checkpoints.map { "progress_without_day\($0)" }
    var lines = [header.joined(separator: ",")]
    let blanks = Array(repeating: "", count: checkpoints.count)
    for row in rules {
      let head =
        [row.info.id, row.info.title ?? "", row.info.achievement ?? "", row.info.tier ?? ""].map(Self.field)
        + [String(row.info.points)]
      func text(_ value: Double?) -> String { value.map { Self.decimal(($0 * 10_000).rounded()) } ?? "" }
      func spread(_ spread: Spread?) -> [String] { [spread?.p10, spread?.p50, spread?.p90].map(text) }
      let recurring = row.info.every != nil
      let progress = recurring || row.progress.count != checkpoints.count ? blanks : row.progress.map(text)
      func earnings(_ values: [Double]?, _ range: Spread?) -> [String] {
        guard recurring, let values, values.count == checkpoints.count else { return blanks + ["", "", ""] }
        return values.map(text) + spread(range)
      }
      lines.append(
        (head + ["all", String(users)] + row.shares.map(text)
          + [row.days?.p10, row.days?.p50, row.days?.p90, row.minutes?.p10, row.minutes?.p50, row.minutes?.p90]
          .map(text) + earnings(row.earnings, row.earningSpread) + progress).joined(separator: ","))
      for (p, persona) in personas.enumerated() {
        let own = p < row.personaEarnings.count ? row.personaEarnings[p] : nil
        let range = p < row.personaEarningSpread.count ? row.personaEarningSpread[p] : nil
        lines.append(
          (head + [Self.field(persona.name), String(persona.users)] + row.personaShares[p].map(text)
            + ["", text(row.personaDays[p]), "", "", text(row.personaMinutes[p]), ""] + earnings(own, range)
            + blanks).joined(separator: ","))
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A CSV field, quoted when it needs to be.
  static func field(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
