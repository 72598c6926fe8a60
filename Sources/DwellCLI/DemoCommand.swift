internal import Dwell
internal import DwellHarness
internal import DwellTesting
internal import Foundation

enum DemoCommand {
  static let command = Command(
    name: "demo",
    summary: "Simulate weeks of a sample learning app and print its report",
    discussion: """
      Simulates N days (default 28) of a sample learning app (navigation, sheets, Control
      Centre, backgrounding, a time-zone change, the odd crash) through the real engine and
      store, with the sample rule pack from rules/learning, prints the report and writes the
      HTML report. Deterministic for a given seed.
      """,
    options: [
      .integer("days", "N", "Days to simulate, 1 to 3650", default: 28, in: 1...3650),
      .integer("seed", "N", "Random seed", default: 1, in: 0...Int.max),
      .value("out", "DIR", "Keep the store, the trace and report.html in DIR"),
      .value(
        "html", "FILE",
        "Where to write the HTML report",
        default: "DIR/report.html with --out, otherwise dwell-demo.html in the current folder"),
    ],
    run: run)

  /// The sample learning-app pack: next to the sources in a checkout, or in ./rules.
  static func samplePack() -> String? {
    let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("rules/learning").path
    return [checkout, "rules/learning"].first { FileManager.default.fileExists(atPath: $0) }
  }

  /// Used when the sample pack is not found (an installed binary).
  static let fallbackRules: [Rule] = [
    Rule("ten-minutes-of-lessons", when: .screenTime("Lessons", .seconds(600))),
    Rule("quiz-taker", when: .visits("Quiz", 5)),
    Rule("three-day-streak", when: .streak(3)),
    Rule("practice-week", when: .streak(7, minimumPerDay: .seconds(120), screen: "Lessons")),
    Rule("regular", when: .sessions(20)),
  ]

  static func run(_ args: Arguments) throws {
    let days = try args.integer("days")
    let seed = try args.integer("seed")
    // The generator's screens are the sample app's, named as the sample pack names them.
    let events = TraceGenerator(days: days, seed: UInt64(seed)).events()
    let directory = args.value("out")
    let store: String
    if let directory {
      try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      store = directory + "/demo.sqlite"
      Store.removeFiles(at: store)
      let trace = events.map(\.jsonLine).joined(separator: "\n") + "\n"
      try Files.write(trace, to: directory + "/demo-trace.jsonl", sparing: [])
    } else {
      store = Files.temporaryStore()
    }
    defer { if directory == nil { Store.removeFiles(at: store) } }
    var configuration = Engine.Configuration(rules: fallbackRules)
    let packPath = samplePack()
    if let packPath { configuration = try RulesLoader.load(packPath).configuration(base: configuration) }
    let report = try Replayer(storePath: store, configuration: configuration).run(events)
    Terminal.print("Dwell demo: \(days) days of a learning app, \(events.count) lifecycle events (seed \(seed))")
    Terminal.print("Rules: \(packPath.map { "the sample pack \($0)" } ?? "built-in sample rules")\n")
    Terminal.print(
      ReportText.render(
        report, rules: configuration.rules, levels: configuration.levels, unlockTime: .monotonicSeconds,
        style: .terminal, progress: ReportText.progress(store: store, configuration: configuration)))
    let html = args.value("html") ?? directory.map { $0 + "/report.html" } ?? "dwell-demo.html"
    let visits = (try? Store(path: store, readOnly: true).visits()) ?? []
    let page = HTMLReport(report: report, visits: visits, title: "demo, \(days) days").render()
    try Files.write(page, to: html, sparing: Output.storeFiles(store))
    Terminal.print("\nHTML report: \(html)")
    if let directory { Terminal.print("Store and trace written to \(directory)") }
  }
}
