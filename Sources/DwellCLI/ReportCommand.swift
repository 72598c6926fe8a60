internal import Dwell
internal import DwellHarness
internal import Foundation

enum ReportCommand {
  static let command = Command(
    name: "report",
    summary: "Print the report of an existing store",
    discussion: """
      Prints the report of an existing store (for example one downloaded from a device with
      Xcode's "Download Container"): app time, sessions, streaks, a table of screens, a daily
      bar chart, actions per day, recurring rules' earnings and the unlocks. Unlock times
      are wall-clock times. "Today" is the last day with time in the store.
      """,
    arguments: [.init("STORE", "The SQLite store")],
    options: [
      .flag("json", "Print the report as JSON (the shape of dwell replay --json)"),
      .value("html", "FILE", "Also write a self-contained HTML page with charts"),
      .integer("days", "N", "Days in the bar chart", default: 14, in: 1...3650),
      .value("screen", "NAME", "The chart and totals for one screen instead of the app"),
      .value("rules", "PATH", "Show these rules (JSON or Lua) with their state and progress"),
    ],
    sections: [
      .init(
        "EXAMPLES",
        """
        dwell report usage.sqlite
        dwell report usage.sqlite --html report.html --days 60
        """)
    ],
    run: run)

  static func run(_ args: Arguments) throws {
    let path = args.argument("STORE")
    guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure("no store at \(path)") }
    let days = try args.integer("days")
    let report: UsageReport
    let visits: [Store.Visit]
    do {
      let store = try Store(path: path, readOnly: true)
      report = try UsageReport(store: store)
      visits = args.value("html") == nil ? [] : try store.visits()
    } catch {
      throw CommandFailure("cannot read the store \(path): \(error)")
    }
    if let screen = args.value("screen"), report.screens[screen] == nil {
      throw CommandFailure("no screen named '\(screen)' in \(path)")
    }
    if let html = args.value("html") {
      let page = HTMLReport(report: report, visits: visits, title: URL(fileURLWithPath: path).lastPathComponent)
        .render()
      try Files.write(page, to: html, sparing: Output.storeFiles(path) + Output.packFiles(args.value("rules")))
    }
    if args.flag("json") {
      Terminal.print(report.json(includeUnlocks: true, unlockTime: .wallClock))
    } else {
      var configuration = Engine.Configuration()
      if let rules = args.value("rules") {
        configuration = try RulesLoader.load(rules).configuration(base: configuration)
      }
      Terminal.print(
        ReportText.render(
          report, rules: configuration.rules, levels: configuration.levels, unlockTime: .wallClock, days: days,
          screen: args.value("screen"), style: .terminal,
          progress: ReportText.progress(store: path, configuration: configuration)))
      if let html = args.value("html") { Terminal.print("\nHTML report written to \(html)") }
    }
  }
}

extension String {
  func leftPad(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
