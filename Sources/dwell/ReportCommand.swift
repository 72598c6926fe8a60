internal import Dwell
internal import Foundation

enum ReportCommand {
  static let help = """
    USAGE: dwell report STORE [--json]

    Prints the report of an existing store (for example one downloaded from a device).
    Unlock times are wall-clock times.

    OPTIONS:
      --json     Print the report as JSON
    """

  static func run(_ raw: [String]) throws {
    let args = try Arguments(raw, valued: [], boolean: ["json", "help"])
    if args.flag("help") { return print(help) }
    guard args.positionals.count == 1, let path = args.positionals.first else {
      throw UsageError("report takes one store file; run 'dwell report --help'")
    }
    guard FileManager.default.fileExists(atPath: path) else { throw Failure("no store at \(path)") }
    let report: UsageReport
    do {
      report = try UsageReport(store: Store(path: path, readOnly: true))
    } catch {
      throw Failure("cannot read the store \(path): \(error)")
    }
    if args.flag("json") {
      print(report.json(includeUnlocks: true, unlockTime: .wallClock))
    } else {
      print(ReportText.render(report, rules: [], unlockTime: .wallClock))
    }
  }
}

enum ReportText {
  static func duration(_ d: Duration) -> String {
    let total = Int(d.seconds.rounded())
    if total < 60 { return "\(total)s" }
    if total < 3600 { return "\(total / 60)m \(String(format: "%02d", total % 60))s" }
    return "\(total / 3600)h \(String(format: "%02d", total / 60 % 60))m"
  }

  static func render(
    _ report: UsageReport, rules: [Rule], levels: [Level] = [], unlockTime: UsageReport.UnlockTime
  ) -> String {
    var lines: [String] = []
    lines.append(
      "App time \(duration(report.app.time)) · \(report.sessions) sessions · \(report.activeDays) active days · longest streak \(report.longestStreak)"
    )
    if report.points > 0 || !levels.isEmpty {
      var text = "Points \(report.points)"
      if let level = Level.summary(report.points, in: levels) { text += " · level \(level)" }
      lines.append(text)
    }
    lines.append("")
    let screens = report.screens.sorted { $0.value.time > $1.value.time }
    let nameWidth = min(24, max(6, screens.map(\.key.count).max() ?? 6))
    lines.append(
      "Screen".padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "        Time  Visits  Share")
    for (name, figures) in screens {
      let share = report.app.time > .zero ? figures.time.seconds / report.app.time.seconds * 100 : 0
      let label = name.count > nameWidth ? String(name.prefix(nameWidth - 1)) + "…" : name
      lines.append(
        label.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
          + duration(figures.time).leftPad(12) + String(figures.visits).leftPad(8)
          + String(format: "%6.1f%%", share))
    }
    if !rules.isEmpty || !report.unlocks.isEmpty {
      lines.append("")
      lines.append("Rules")
      let ids = rules.isEmpty ? report.unlocks.keys.sorted() : rules.map(\.id)
      for id in ids {
        if let record = report.unlocks[id] {
          let when =
            unlockTime == .monotonicSeconds
            ? "t=\(String(format: "%.3f", record.mono.seconds))" : "\(record.wall.date)"
          lines.append("  ✓ \(id)  unlocked at \(when)")
        } else {
          lines.append("  · \(id)  locked")
        }
      }
    }
    return lines.joined(separator: "\n")
  }
}

extension String {
  func leftPad(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
