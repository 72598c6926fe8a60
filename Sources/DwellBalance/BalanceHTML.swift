// A balance report as one self-contained HTML page with SVG charts (no scripts, no outside files).
internal import Foundation

extension BalanceReport {
  static let palette = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
  ]
  /// Dash patterns that tell apart lines of the same colour, after the first ten solid ones.
  static let dashes = ["9 3", "2 3", "9 3 2 3", "14 4", "4 4", "9 3 2 3 2 3"]

  /// How the `index`-th line of a chart is drawn, unlike any other index's: the palette's
  /// colours solid, then again with each dash pattern in turn; past those, the colours of
  /// ``fill(_:)``, each with a pattern.
  static func line(_ index: Int) -> (color: String, dash: String?) {
    let round = index / palette.count
    if round == 0 { return (palette[index], nil) }
    if round <= dashes.count { return (palette[index % palette.count], dashes[round - 1]) }
    return (fill(index), dashes[index % dashes.count])
  }

  /// The colour of the `index`-th area or bar, unlike any other index's: the palette's,
  /// then hues spread by the golden angle, at three lightnesses.
  static func fill(_ index: Int) -> String {
    guard index >= palette.count else { return palette[index] }
    let hue = (Double(index) * 137.508).truncatingRemainder(dividingBy: 360)
    return "hsl(\(f(hue)), 65%, \([42, 30, 55][index % 3] + index / 3_000)%)"
  }

  /// The page: unlock curves per rule, levels over time, personas side by side, the tables.
  package var html: String {
    var body = "<h1>Balance: \(Self.escape(pack))</h1>\n"
    body += population()
    body += "<h2>Unlocks: share of users with each rule, by day</h2>\n"
    body += lineChart(series: rules.map { Series($0.info.id, $0.curve) }, id: "unlock-curves", label: "share of users")
    body += sections()
    body += "<h2>Table</h2>\n<pre>" + Self.escape(table()) + "</pre>\n"
    return Self.page(title: pack, body: body)
  }

  /// Who was simulated, in a sentence.
  func population() -> String {
    "<p>\(BalanceReport.group(users)) simulated users, \(days) days, seed \(seed). Personas: "
      + personas.map { "\(Self.escape($0.name)) (\(BalanceReport.group($0.users)))" }.joined(separator: ", ")
      + ".</p>\n"
  }

  /// Levels over time, personas and retention.
  func sections() -> String {
    var body = "<h2>Levels over time</h2>\n"
    body += levels.isEmpty ? "<p>The pack defines no levels.</p>\n" : levelChart()
    body += "<h2>Personas: share with each rule by day \(days)</h2>\n"
    body += personaChart()
    body += "<h2>Users active each day</h2>\n"
    body += lineChart(
      series: personas.map { Series($0.name, $0.retention) }, id: "retention", label: "share active")
    return body
  }

  /// One line of a chart: its name in the legend, a value a day, and how it is drawn: by
  /// default the ``line(_:)`` of its place in the chart; a rule's old and new versions
  /// share `color` (an index for ``fill(_:)``, a colour of its own whatever the number of
  /// rules), the new one solid, the old one (`dashed`) dashed and fainter.
  struct Series {
    var name: String
    var values: [Double]
    var color: Int?
    var dashed = false

    init(_ name: String, _ values: [Double], color: Int? = nil, dashed: Bool = false) {
      self.name = name
      self.values = values
      self.color = color
      self.dashed = dashed
    }
  }

  /// A self-contained page around `body`.
  static func page(title: String, body: String) -> String {
    """
    <!DOCTYPE html>
    <html lang="en"><head><meta charset="utf-8"><title>dwell balance: \(Self.escape(title))</title>
    <style>
    body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; background: #fff; }
    svg { background: #fafafa; border: 1px solid #ddd; display: block; margin: 8px 0 24px; }
    .axis { stroke: #999; stroke-width: 1; } .grid { stroke: #e4e4e4; stroke-width: 1; }
    text { font-size: 11px; fill: #444; } pre { font-size: 12px; background: #f6f6f6; padding: 8px; }
    </style></head>
    <body>
    \(body)</body></html>

    """
  }

  private static let width = 900.0
  private static let plot = (left: 60.0, top: 20.0, width: 600.0, height: 260.0)

  private func x(_ day: Int) -> Double {
    Self.plot.left + Self.plot.width * (days > 1 ? Double(day) / Double(days - 1) : 0.5)
  }

  private static func y(_ share: Double) -> Double { plot.top + plot.height * (1 - min(max(share, 0), 1)) }

  private func axes() -> String {
    var svg = ""
    for step in 0...4 {
      let share = Double(step) / 4
      let y = Self.y(share)
      svg +=
        "<line class=\"grid\" x1=\"\(Self.f(Self.plot.left))\" y1=\"\(Self.f(y))\" x2=\"\(Self.f(Self.plot.left + Self.plot.width))\" y2=\"\(Self.f(y))\"/>"
      svg += "<text x=\"\(Self.f(Self.plot.left - 6))\" y=\"\(Self.f(y + 4))\" text-anchor=\"end\">\(step * 25)%</text>"
    }
    for day in Set([1, days] + checkpoints).sorted() {
      svg +=
        "<text x=\"\(Self.f(x(day - 1)))\" y=\"\(Self.f(Self.plot.top + Self.plot.height + 16))\" text-anchor=\"middle\">day \(day)</text>"
    }
    svg +=
      "<line class=\"axis\" x1=\"\(Self.f(Self.plot.left))\" y1=\"\(Self.f(Self.plot.top + Self.plot.height))\" x2=\"\(Self.f(Self.plot.left + Self.plot.width))\" y2=\"\(Self.f(Self.plot.top + Self.plot.height))\"/>"
    return svg
  }

  /// What the legend shows beside a name: an area's colour, or a piece of a line as it is
  /// drawn (its stroke attributes: colour, width, dashes).
  enum Swatch {
    case area(String)
    case line(String)
  }

  /// The legend beside a chart, one entry a line.
  private func legend(_ entries: [(name: String, swatch: Swatch)]) -> String {
    var svg = ""
    let left = Self.plot.left + Self.plot.width + 16
    for (index, (name, swatch)) in entries.enumerated() {
      let y = Self.plot.top + 6 + Double(index) * 16
      switch swatch {
      case .area(let color):
        svg +=
          "<rect x=\"\(Self.f(left + 7))\" y=\"\(Self.f(y - 8))\" width=\"10\" height=\"10\" fill=\"\(color)\"/>"
      case .line(let stroke):
        svg +=
          "<line x1=\"\(Self.f(left))\" y1=\"\(Self.f(y - 3))\" x2=\"\(Self.f(left + 24))\" y2=\"\(Self.f(y - 3))\" \(stroke)/>"
      }
      svg +=
        "<text x=\"\(Self.f(left + 30))\" y=\"\(Self.f(y + 1))\">\(Self.escape(BalanceReport.clip(name, 30)))</text>"
    }
    return svg
  }

  private func svg(_ id: String, height: Double, _ content: String) -> String {
    "<svg id=\"\(id)\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.f(Self.width))\" height=\"\(Self.f(height))\" viewBox=\"0 0 \(Self.f(Self.width)) \(Self.f(height))\">\(content)</svg>\n"
  }

  /// A chart of `series`, one line a day each, with a legend; as small multiples past
  /// ``mostLines`` lines (a rule's old and new versions count as one).
  func lineChart(series: [Series], id: String, label: String) -> String {
    let panels = Self.panels(series)
    if panels.count > Self.mostLines { return smallMultiples(panels, id: id, label: label) }
    var content = axes()
    var entries: [(name: String, swatch: Swatch)] = []
    for (index, item) in series.enumerated() {
      // A pair's dashes say only old or new (the key says so): its colour alone tells rules apart.
      let look = item.color.map { (color: Self.fill($0), dash: item.dashed ? "6 4" : nil) } ?? Self.line(index)
      let stroke =
        "stroke=\"\(look.color)\" stroke-width=\"2\""
        + (look.dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")
        + (item.dashed ? " stroke-opacity=\"0.55\"" : "")
      let points = item.values.enumerated().map { "\(Self.f(x($0.offset))),\(Self.f(Self.y($0.element)))" }
      content +=
        "<polyline fill=\"none\" \(stroke) points=\"\(points.joined(separator: " "))\"><title>\(Self.escape(item.name))</title></polyline>"
      entries.append((item.name, .line(stroke)))
    }
    content += legend(entries)
    let height = max(Self.plot.top + Self.plot.height + 30, Self.plot.top + 16 * Double(series.count) + 10)
    return svg(id, height: height, content)
  }

  func levelChart(id: String = "levels") -> String {
    var content = axes()
    // Stacked areas, the lowest level at the bottom.
    var below = Array(repeating: 0.0, count: days)
    for level in levels.indices {
      let above = (0..<days).map { below[$0] + (levelShares[$0][level]) }
      let top = (0..<days).map { "\(Self.f(x($0))),\(Self.f(Self.y(above[$0])))" }
      let bottom = (0..<days).reversed().map { "\(Self.f(x($0))),\(Self.f(Self.y(below[$0])))" }
      content +=
        "<polygon fill=\"\(Self.fill(level))\" fill-opacity=\"0.8\" points=\"\((top + bottom).joined(separator: " "))\"><title>\(Self.escape(levels[level]))</title></polygon>"
      below = above
    }
    content += legend(levels.enumerated().map { ($0.element, .area(Self.fill($0.offset))) })
    return svg(id, height: Self.plot.top + Self.plot.height + 30, content)
  }

  private func personaChart() -> String {
    let barHeight = 10.0
    let groupHeight = barHeight * Double(personas.count) + 8
    let labelWidth = 200.0
    let barWidth = 520.0
    var content = ""
    for (r, row) in rules.enumerated() {
      let top = 10 + groupHeight * Double(r)
      content +=
        "<text x=\"\(Self.f(labelWidth - 8))\" y=\"\(Self.f(top + groupHeight / 2))\" text-anchor=\"end\">\(Self.escape(BalanceReport.clip(row.info.id, 30)))</text>"
      for p in personas.indices {
        let share = row.personaShares[p].last ?? 0
        let y = top + Double(p) * barHeight
        content +=
          "<rect x=\"\(Self.f(labelWidth))\" y=\"\(Self.f(y))\" width=\"\(Self.f(max(1, barWidth * share)))\" height=\"\(Self.f(barHeight - 1))\" fill=\"\(Self.fill(p))\"><title>\(Self.escape(personas[p].name)): \(BalanceReport.percent(share))</title></rect>"
      }
    }
    for (p, persona) in personas.enumerated() {
      let y = 18 + Double(p) * 16
      content +=
        "<rect x=\"\(Self.f(labelWidth + barWidth + 20))\" y=\"\(Self.f(y - 8))\" width=\"10\" height=\"10\" fill=\"\(Self.fill(p))\"/>"
      content +=
        "<text x=\"\(Self.f(labelWidth + barWidth + 36))\" y=\"\(Self.f(y + 1))\">\(Self.escape(persona.name))</text>"
    }
    let height = max(20 + groupHeight * Double(rules.count), 30 + 16 * Double(personas.count))
    return svg("personas", height: height, content)
  }

  static func f(_ value: Double) -> String { BalanceReport.decimal((value * 100).rounded() * 100) }

  static func escape(_ text: String) -> String {
    var out = ""
    for c in text {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(c)
      }
    }
    return out
  }
}
