// Charts of more than ten lines as small multiples: one small panel a rule (or persona), each titled, none crowded.

extension BalanceReport {
  /// The most lines (or old/new pairs) one chart draws together; past them a chart is
  /// drawn as small multiples.
  static let mostLines = 10
  /// Small multiples: panels a row, and each panel's size.
  static let panelColumns = 4
  static let panelSize = (width: 225.0, height: 150.0)
  /// The plot inside a panel, from the panel's top left corner.
  static let panelPlot = (left: 34.0, top: 26.0, width: 178.0, height: 96.0)

  /// The `index`-th panel's frame in its chart.
  static func panelFrame(_ index: Int) -> (x: Double, y: Double, width: Double, height: Double) {
    let column = index % panelColumns
    let row = index / panelColumns
    return (Double(column) * panelSize.width, Double(row) * panelSize.height, panelSize.width, panelSize.height)
  }

  /// The lines of a chart in panels: a rule's old and new versions (the same `color`)
  /// share one, every other line has its own.
  static func panels(_ series: [Series]) -> [[Series]] {
    var panels: [[Series]] = []
    var byColor: [Int: Int] = [:]
    for item in series {
      if let color = item.color, let panel = byColor[color] {
        panels[panel].append(item)
        continue
      }
      if let color = item.color { byColor[color] = panels.count }
      panels.append([item])
    }
    return panels
  }

  /// One small chart a panel, in a grid: the panel's title names its line (the rule) with
  /// its value on the last day (old -> new for a pair), the axes show 0 and 100% and the
  /// first and last day; each line is drawn in its own colour (``fill(_:)``), an old one
  /// dashed and fainter beside the new one.
  func smallMultiples(_ panels: [[Series]], id: String, label: String) -> String {
    let plot = Self.panelPlot
    var content = ""
    for (index, panel) in panels.enumerated() {
      let frame = Self.panelFrame(index)
      let left = frame.x + plot.left
      let top = frame.y + plot.top
      func x(_ day: Int) -> Double { left + plot.width * (days > 1 ? Double(day) / Double(days - 1) : 0.5) }
      func y(_ share: Double) -> Double { top + plot.height * (1 - min(max(share, 0), 1)) }
      let name = panel.last?.name ?? ""
      let figures = panel.map { Self.percent($0.values.last ?? 0) }.joined(separator: " -> ")
      content +=
        "<text x=\"\(Self.f(frame.x + 8))\" y=\"\(Self.f(frame.y + 16))\"><tspan font-weight=\"bold\">"
        + Self.escape(Self.clip(name, 24)) + "</tspan> " + Self.escape(figures) + "</text>"
      for share in [0.0, 0.5, 1] {
        content +=
          "<line class=\"grid\" x1=\"\(Self.f(left))\" y1=\"\(Self.f(y(share)))\" x2=\"\(Self.f(left + plot.width))\" y2=\"\(Self.f(y(share)))\"/>"
      }
      content +=
        "<text x=\"\(Self.f(left - 4))\" y=\"\(Self.f(y(1) + 4))\" text-anchor=\"end\">100%</text>"
        + "<text x=\"\(Self.f(left - 4))\" y=\"\(Self.f(y(0) + 4))\" text-anchor=\"end\">0</text>"
        + "<text x=\"\(Self.f(left))\" y=\"\(Self.f(top + plot.height + 14))\">day 1</text>"
        + "<text x=\"\(Self.f(left + plot.width))\" y=\"\(Self.f(top + plot.height + 14))\" text-anchor=\"end\">day \(days)</text>"
      for item in panel {
        let color = Self.fill(item.color ?? index)
        let stroke =
          "stroke=\"\(color)\" stroke-width=\"2\""
          + (item.dashed ? " stroke-dasharray=\"6 4\" stroke-opacity=\"0.55\"" : "")
        let points = item.values.enumerated().map { "\(Self.f(x($0.offset))),\(Self.f(y($0.element)))" }
        content +=
          "<polyline fill=\"none\" \(stroke) points=\"\(points.joined(separator: " "))\"><title>\(Self.escape(item.name))</title></polyline>"
      }
    }
    let rows = (panels.count + Self.panelColumns - 1) / Self.panelColumns
    let width = Double(Self.panelColumns) * Self.panelSize.width
    let height = Double(max(rows, 1)) * Self.panelSize.height
    return
      "<p>\(Self.escape(label)) by day, one panel each (\(panels.count); more than \(Self.mostLines) would crowd one chart).</p>\n"
      + "<svg id=\"\(id)\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.f(width))\" height=\"\(Self.f(height))\" viewBox=\"0 0 \(Self.f(width)) \(Self.f(height))\">\(content)</svg>\n"
  }
}
