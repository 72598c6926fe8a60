// Two versions of a pack on the same simulated users, as one self-contained HTML page.
internal import Foundation

extension BalanceComparison {
  /// The page: each rule's unlock curve, old (dashed) and new (solid) in one colour (small
  /// multiples past ten rules), the side-by-side table, the old pack's levels, then the new
  /// pack's levels, personas and retention.
  package var html: String {
    var series: [BalanceReport.Series] = []
    for (index, id) in ids.enumerated() {
      if let rule = row(old, id) {
        series.append(.init("\(id) (old)", rule.curve, color: index, dashed: true))
      }
      if let rule = row(new, id) {
        series.append(.init(id, rule.curve, color: index))
      }
    }
    let escape = BalanceReport.escape
    var body = "<h1>Balance: \(escape(old.pack)) &#8594; \(escape(new.pack))</h1>\n"
    body += "<p>Both versions on the same users.</p>\n" + new.population()
    body += "<h2>Unlocks: share of users with each rule, by day (dashed: old, solid: new)</h2>\n"
    body += new.lineChart(series: series, id: "unlock-curves", label: "share of users")
    body += "<h2>Old and new</h2>\n<pre>" + escape(table) + "</pre>\n"
    // Both packs' levels, the old one's first: the text above has them side by side by day and persona.
    body += "<h2>Old: levels over time</h2>\n"
    body += old.levels.isEmpty ? "<p>The old pack defines no levels.</p>\n" : old.levelChart(id: "old-levels")
    body += new.sections().replacingOccurrences(of: "<h2>", with: "<h2>New: ")
    return BalanceReport.page(title: "\(old.pack) -> \(new.pack)", body: body)
  }
}
