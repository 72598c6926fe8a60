internal import Dwell
internal import DwellLua
internal import DwellTesting
internal import Foundation

enum ReplayCommand {
  static let command = Command(
    name: "replay",
    summary: "Replay a lifecycle trace through the engine and print the report",
    discussion: """
      Feeds a lifecycle trace (JSON Lines, see Accounting in the docs) to the real engine on a manual
      clock, with a real SQLite store, and prints the report.
      """,
    arguments: [.init("TRACE", "The trace: one JSON object a line")],
    options: [
      .value("rules", "FILE|DIR", "Rules: a JSON file (.json), a Lua script (.lua) or a directory of them")
    ] + Command.Option.timeouts + [
      .seconds(
        "checkpoint-interval", "Commit interval while accruing", default: Engine.Configuration().checkpointInterval),
      .value("store", "PATH", "Keep the store at PATH", default: "a temporary file"),
      .flag("json", "Print the report as JSON"),
    ],
    sections: [
      .init(
        "EXAMPLES",
        """
        dwell replay trace.jsonl --rules rules.json --json
        dwell replay trace.jsonl --store usage.sqlite && dwell report usage.sqlite
        """)
    ],
    run: run)

  static func run(_ args: Arguments) throws {
    let path = args.argument("TRACE")
    var configuration = Engine.Configuration()
    try args.applyTimeouts(to: &configuration)
    if let interval = try args.seconds("checkpoint-interval") {
      guard interval > .zero else { throw UsageError("--checkpoint-interval must be above zero") }
      configuration.checkpointInterval = interval
    }
    if let rulesPath = args.value("rules") {
      configuration = try RulesLoader.load(rulesPath).configuration(base: configuration)
    }
    let text = try Files.readTrace(path)
    let events: [TraceEvent]
    do {
      events = try TraceParser.parse(text)
    } catch {
      throw CommandFailure("\(path): \(error)")
    }
    let store = args.value("store") ?? Files.temporaryStore()
    defer { if args.value("store") == nil { Store.removeFiles(at: store) } }
    if let kept = args.value("store"), FileManager.default.fileExists(atPath: kept) {
      throw CommandFailure("\(kept) already exists; replay writes a new store (remove it or choose another path)")
    }
    let progress = ProgressBar(total: events.count)
    let report: UsageReport
    do {
      report = try Replayer(storePath: store, configuration: configuration).run(events) { progress.update($0) }
    } catch {
      throw CommandFailure("\(error)")
    }
    progress.finish()
    if args.flag("json") {
      Terminal.print(
        report.json(
          includeUnlocks: args.value("rules") != nil,
          recurring: configuration.rules.filter { $0.every != nil }.map(\.id)))
    } else {
      Terminal.print(
        ReportText.render(
          report, rules: configuration.rules, levels: configuration.levels, unlockTime: .monotonicSeconds))
    }
  }
}
