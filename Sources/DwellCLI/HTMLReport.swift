internal import Dwell
internal import Foundation

/// One self-contained HTML page (inline SVG and CSS, no network, no scripts or fonts):
/// daily time stacked by screen, screen share, time of day, a streak calendar, unlocks,
/// earnings of recurring rules and actions per day (HTMLReport+Actions.swift).
/// Readable in light and dark mode; correct with 1 screen or 200, 1 day or 3 years.
struct HTMLReport {
  let report: UsageReport
  let visits: [Store.Visit]
  let title: String

  static let palette = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#9c9c9c"]

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }

  static func hours(_ d: Duration) -> String {
    let minutes = Int((d.seconds / 60).rounded())
    return minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
  }

  func render() -> String {
    let days = report.app.days.keys.sorted()
    var body = "<h1>Dwell report <small>\(Self.escape(title))</small></h1>"
    body += summary(days)
    if days.isEmpty {
      body += "<p class=empty>No time recorded yet.</p>"
    } else {
      body += section("Time per day, by screen", dailyStack(days))
      body += section("Share of time by screen", share())
      body += section("Time of day (local time of this computer)", timeOfDay())
      body += section("Active days", calendar(days))
    }
    body += section("Unlocks", unlocks())
    if !report.earnings.isEmpty { body += section("Recurring rules earned", earnings()) }
    if !report.actions.isEmpty { body += section("Actions per day", actions()) }
    return """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>Dwell report: \(Self.escape(title))</title>
      <style>
      :root { color-scheme: light dark; --fg: #1d1d1f; --bg: #ffffff; --muted: #6e6e73; --grid: #e5e5ea; --cell0: #ebedf0; }
      @media (prefers-color-scheme: dark) { :root { --fg: #f5f5f7; --bg: #1c1c1e; --muted: #a1a1a6; --grid: #3a3a3c; --cell0: #2c2c2e; } }
      body { font: 14px/1.4 -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); margin: 2em auto; max-width: 1000px; padding: 0 1em; }
      h1 small { color: var(--muted); font-weight: normal; font-size: 60%; }
      h2 { font-size: 16px; margin-top: 2em; }
      .figures { display: flex; flex-wrap: wrap; gap: 1.5em; }
      .figures div { min-width: 8em; } .figures b { display: block; font-size: 22px; }
      svg text { fill: var(--fg); font-size: 11px; } svg .muted { fill: var(--muted); }
      svg .grid { stroke: var(--grid); }
      .legend span { display: inline-block; margin-right: 1em; } .legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
      table { border-collapse: collapse; } td, th { padding: 4px 12px 4px 0; text-align: left; }
      .empty { color: var(--muted); }
      </style></head><body>
      \(body)
      </body></html>
      """
  }

  func section(_ title: String, _ content: String) -> String { "<section><h2>\(title)</h2>\(content)</section>" }

  func summary(_ days: [Day]) -> String {
    let range = days.first.map { first in "\(first) to \(days.last ?? first)" } ?? "no days yet"
    let figures = [
      ("App time", Self.hours(report.app.time)), ("Sessions", "\(report.sessions)"),
      ("Active days", "\(report.activeDays)"), ("Longest streak", "\(report.longestStreak) days"),
      ("Screens", "\(report.screens.count)"), ("Unlocks", "\(report.unlocks.count)"),
    ]
    return "<div class=figures>" + figures.map { "<div>\($0.0)<b>\($0.1)</b></div>" }.joined()
      + "</div><p class=empty>\(range)</p>"
  }

  /// The top screens by time (at most 7) and the rest as "Other".
  var topScreens: [String] {
    Array(report.screens.sorted { ($0.value.time, $1.key) > ($1.value.time, $0.key) }.prefix(7).map(\.key))
  }

  func dailyStack(_ days: [Day]) -> String {
    guard let first = days.first, let last = days.last else { return "" }
    let span = Int(last.ordinal - first.ordinal) + 1
    let bucket = span > 180 ? 7 : 1  // weeks for long histories
    let buckets = (span + bucket - 1) / bucket
    let top = topScreens
    var stacks: [[Double]] = Array(repeating: Array(repeating: 0, count: top.count + 1), count: buckets)
    for (name, figures) in report.screens {
      let slot = top.firstIndex(of: name) ?? top.count
      for (day, time) in figures.days {
        let index = Int(day.ordinal - first.ordinal) / bucket
        if index >= 0 && index < buckets { stacks[index][slot] += time.seconds }
      }
    }
    let tallest = max(stacks.map { $0.reduce(0, +) }.max() ?? 1, 1)
    let width = 960.0
    let height = 220.0
    let barWidth = max(1, (width - 40) / Double(buckets))
    var svg =
      "<svg viewBox=\"0 0 \(Int(width)) \(Int(height + 30))\" width=\"100%\" role=img aria-label=\"Time per day\">"
    svg += "<line class=grid x1=40 y1=\(height) x2=\(width) y2=\(height) />"
    svg += "<text class=muted x=0 y=12>\(Self.hours(.seconds(tallest)))</text>"
    for (index, stack) in stacks.enumerated() {
      var y = height
      for (slot, seconds) in stack.enumerated() where seconds > 0 {
        let h = seconds / tallest * (height - 10)
        y -= h
        let name = slot < top.count ? top[slot] : "Other"
        let day = first.adding(days: Int32(index * bucket))
        svg += String(
          format:
            "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%@\"><title>%@ %@: %@</title></rect>",
          40 + Double(index) * barWidth, y, max(0.5, barWidth - (barWidth > 3 ? 1 : 0)), h,
          Self.palette[min(slot, Self.palette.count - 1)], day.description, Self.escape(name),
          Self.hours(.seconds(seconds)))
      }
    }
    svg += "<text class=muted x=40 y=\(Int(height + 20))>\(first)</text>"
    svg +=
      "<text class=muted x=\(Int(width)) y=\(Int(height + 20)) text-anchor=end>\(last)\(bucket > 1 ? " (weekly)" : "")</text></svg>"
    let legend = (top + (report.screens.count > top.count ? ["Other"] : [])).enumerated().map { index, name in
      "<span><i style=\"background:\(Self.palette[min(index, Self.palette.count - 1)])\"></i>\(Self.escape(name))</span>"
    }.joined()
    return svg + "<div class=legend>\(legend)</div>"
  }

  func share() -> String {
    let sorted = report.screens.sorted { ($0.value.time, $1.key) > ($1.value.time, $0.key) }
    var rows = Array(sorted.prefix(15).map { ($0.key, $0.value.time.seconds) })
    let rest = sorted.dropFirst(15).reduce(0.0) { $0 + $1.value.time.seconds }
    if rest > 0 { rows.append(("\(sorted.count - 15) other screens", rest)) }
    guard !rows.isEmpty else { return "<p class=empty>No screens yet.</p>" }
    let total = max(report.app.time.seconds, 1)
    let widest = max(rows.map(\.1).max() ?? 1, 1)
    var svg = "<svg viewBox=\"0 0 960 \(rows.count * 22 + 4)\" width=\"100%\" role=img aria-label=\"Share of time\">"
    for (index, row) in rows.enumerated() {
      let y = index * 22
      let name = row.0.count > 28 ? String(row.0.prefix(27)) + "…" : row.0
      svg += "<text x=0 y=\(y + 15)>\(Self.escape(name))</text>"
      svg += String(
        format: "<rect x=\"200\" y=\"%d\" width=\"%.1f\" height=\"16\" fill=\"%@\" />", y + 3, row.1 / widest * 620,
        Self.palette[0])
      svg += String(
        format: "<text class=muted x=\"%.1f\" y=\"%d\">%@ · %.1f%%</text>", 206 + row.1 / widest * 620, y + 15,
        Self.hours(.seconds(row.1)), row.1 / total * 100)
    }
    return svg + "</svg>"
  }

  func timeOfDay() -> String {
    var hours = Array(repeating: 0.0, count: 24)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    for visit in visits {
      hours[calendar.component(.hour, from: visit.started.date)] += visit.active.seconds
    }
    guard hours.contains(where: { $0 > 0 }) else { return "<p class=empty>No visits recorded.</p>" }
    let tallest = max(hours.max() ?? 1, 1)
    var svg = "<svg viewBox=\"0 0 960 150\" width=\"100%\" role=img aria-label=\"Time of day\">"
    for (hour, seconds) in hours.enumerated() {
      let h = seconds / tallest * 110
      svg += String(
        format: "<rect x=\"%d\" y=\"%.1f\" width=\"34\" height=\"%.1f\" fill=\"%@\"><title>%02d:00 %@</title></rect>",
        hour * 40, 120 - h, h, Self.palette[1], hour, Self.hours(.seconds(seconds)))
      if hour % 3 == 0 { svg += "<text class=muted x=\(hour * 40) y=140>\(hour):00</text>" }
    }
    return svg + "</svg>"
  }

  func calendar(_ days: [Day]) -> String {
    guard let first = days.first, let last = days.last else { return "" }
    let start = first.adding(days: -Int32(first.weekday - 1))  // a Monday
    let weeks = Int(last.ordinal - start.ordinal) / 7 + 1
    let cell = weeks > 80 ? 6 : 12
    let longest = max(report.app.days.values.max()?.seconds ?? 1, 1)
    let pixelWidth = weeks * (cell + 2) + 30
    var svg =
      "<svg viewBox=\"0 0 \(pixelWidth) \(7 * (cell + 2) + 4)\" width=\"\(pixelWidth)\" style=\"max-width:100%\" role=img aria-label=\"Active days\">"
    for offset in 0...Int(last.ordinal - start.ordinal) {
      let day = start.adding(days: Int32(offset))
      let seconds = report.app.days[day]?.seconds ?? 0
      let x = 30 + (offset / 7) * (cell + 2)
      let y = (offset % 7) * (cell + 2)
      let fill =
        seconds > 0
        ? String(format: "fill=\"%@\" fill-opacity=\"%.2f\"", Self.palette[4], 0.25 + 0.75 * seconds / longest)
        : "style=\"fill:var(--cell0)\""
      svg +=
        "<rect x=\(x) y=\(y) width=\(cell) height=\(cell) rx=2 \(fill)><title>\(day): \(Self.hours(.seconds(seconds)))</title></rect>"
    }
    svg += "<text class=muted x=0 y=\(cell)>Mon</text><text class=muted x=0 y=\(7 * (cell + 2) - 2)>Sun</text></svg>"
    return svg + "<p class=empty>Longest streak: \(report.longestStreak) days.</p>"
  }

  func unlocks() -> String {
    guard !report.unlocks.isEmpty else { return "<p class=empty>No rule unlocked yet.</p>" }
    let rows = report.unlocks.values.sorted { $0.wall < $1.wall }.map { record in
      "<tr><td>✓ \(Self.escape(record.rule))</td><td>\(ISO8601DateFormatter().string(from: record.wall.date))</td><td>\(record.points > 0 ? "\(record.points) points" : "")</td></tr>"
    }
    return "<table><tr><th>Rule</th><th>Unlocked at (UTC)</th><th></th></tr>\(rows.joined())</table>"
  }
}
