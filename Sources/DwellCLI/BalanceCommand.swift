// `dwell balance`: simulates a population of users through a rule pack (or two versions) and reports.
internal import Dwell
internal import DwellBalance
internal import DwellHarness
internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

enum BalanceCommand {
  static let command = Command(
    name: "balance",
    summary: "Simulate thousands of users through a rule pack and report who unlocks what, when",
    discussion: """
      Generates each simulated user's life from the personas (a Lua file of distributions:
      sessions, session length, time of day, screens, churn, ...), runs it through the real
      engine in memory on a manual clock, and reports each rule's share of users by day 1,
      7, 30 and the last, the day and active minutes it takes (10th, 50th and 90th
      percentile), levels over time, plugin notifications, and the rules nobody or everybody
      unlocks. Given two packs (OLD NEW), runs both on the same users and shows the
      differences. The same seed gives the same report, whatever the number of threads.
      """,
    arguments: [
      .init("PACK", "The rule pack: a directory of .lua files, a .lua file or a JSON rules file"),
      .init("NEW", "A second version of the pack, to compare on the same users", optional: true),
    ],
    options: [
      .value("personas", "FILE", "The persona file", default: "PACK/balance/personas.lua"),
      .integer("users", "N", "Simulated users", default: 1000, in: 1...10_000_000),
      .integer("days", "D", "Days from each user's install", default: 90, in: 1...3660),
      .integer("seed", "S", "The seed: the same seed gives the same users", default: 1, in: 0...Int.max),
      .value(
        "start", "DATE", "The first install day (YYYY-MM-DD): users install on one of the seven days from it",
        default: "2026-01-05, a Monday"),
      .integer(
        "threads", "N", "Workers", default: ProcessInfo.processInfo.activeProcessorCount, in: 1...1024,
        shown: "the number of cores"),
    ] + Command.Option.timeouts + [
      .value("html", "FILE", "Also write a self-contained HTML page with charts"),
      .flag("json", "Print the report as JSON instead of the table"),
      .flag("csv", "Print the report as CSV (one row per rule and persona) instead of the table"),
      .value("export-trace", "USER:FILE", "Also write user USER's life as a trace (TRACE.md) to replay"),
    ],
    sections: [
      .init(
        "EXAMPLES",
        """
        dwell balance rules/learning --users 1000 --days 90
        dwell balance rules/learning --html balance.html --json > balance.json
        dwell balance old/learning rules/learning --personas rules/learning/balance/personas.lua
        dwell balance rules/learning --export-trace 7:user7.jsonl && dwell replay user7.jsonl --rules rules/learning
        """)
    ],
    run: run)

  static func run(_ args: Arguments) throws {
    let old = args.argument("PACK")
    let new = args.argument("NEW").isEmpty ? nil : args.argument("NEW")
    let users = try args.integer("users")
    let days = try args.integer("days")
    let seed = try args.integer("seed")
    let threads = try args.integer("threads")
    guard !(args.flag("json") && args.flag("csv")) else { throw UsageError("choose one of --json and --csv") }
    var base = Engine.Configuration()
    try args.applyTimeouts(to: &base)
    let start = try startDay(args.value("start"))
    let personasPath = args.value("personas") ?? defaultPersonas(for: new ?? old)
    let population: Population
    do {
      population = try PersonaFile.load(personasPath)
    } catch {
      throw CommandFailure("invalid personas: \(error)")
    }
    var packs: [BalancePack] = []
    for path in [old] + (new.map { [$0] } ?? []) {
      do {
        packs.append(try BalancePack(path: path))
      } catch {
        throw CommandFailure("invalid rules: \(error)")
      }
    }
    let runs = packs.map {
      var run = BalanceRun(
        pack: $0, population: population, users: users, days: days, seed: UInt64(seed), threads: threads, base: base)
      run.start = start
      return run
    }
    // What the outputs must not overwrite: the packs, their tests and the personas.
    let inputs = Output.packFiles(old) + Output.packFiles(new) + [personasPath]
    if let export = args.value("export-trace") {
      try exportTrace(export, runs[runs.count - 1], users: users, sparing: inputs)
    }
    var reports: [BalanceReport] = []
    for (index, run) in runs.enumerated() {
      let label = runs.count > 1 ? (index == 0 ? "old" : "new") : nil
      let stats = try simulate(run, label: label)
      reports.append(BalanceReport(stats: stats, pack: run.pack, population: population, seed: UInt64(seed)))
    }
    if reports.count == 2 {
      let comparison = BalanceComparison(old: reports[0], new: reports[1])
      if let html = args.value("html") {
        try Files.write(comparison.html, to: html, sparing: inputs)
      }
      Terminal.print(
        args.flag("json")
          ? comparison.json.rendered(pretty: true) : args.flag("csv") ? comparison.csv : comparison.table,
        terminator: args.flag("json") ? "\n" : "")
      return
    }
    let report = reports[0]
    if let html = args.value("html") { try Files.write(report.html, to: html, sparing: inputs) }
    if args.flag("json") {
      Terminal.print(report.json.rendered(pretty: true))
    } else if args.flag("csv") {
      Terminal.print(report.csv, terminator: "")
    } else {
      Terminal.print(report.table(personasPath: personasPath), terminator: "")
    }
  }

  /// The day `--start` names (the default, 2026-01-05, without it).
  static func startDay(_ text: String?) throws -> Day {
    guard let text else { return UserLife.firstDay }
    guard let day = Day(text), (1970...2200).contains(day.components.year) else {
      throw UsageError("--start takes a date from 1970 to 2200 as YYYY-MM-DD, such as 2026-06-01 (got '\(text)')")
    }
    return day
  }

  /// `PACK/balance/personas.lua` for a directory; beside the file otherwise.
  static func defaultPersonas(for pack: String) -> String {
    var isDirectory: ObjCBool = false
    let directory =
      FileManager.default.fileExists(atPath: pack, isDirectory: &isDirectory) && isDirectory.boolValue
      ? pack : (pack as NSString).deletingLastPathComponent
    return (directory.isEmpty ? "." : directory) + "/balance/personas.lua"
  }

  /// Runs the simulation on every core, with a progress bar on a terminal.
  static func simulate(_ run: BalanceRun, label: String?) throws -> BalanceStats {
    let progress = BalanceProgress(total: run.users, label: label)
    defer { progress.finish() }
    do {
      return try run.runBlocking { progress.update($0) }
    } catch {
      throw CommandFailure("\(error)")
    }
  }

  static func exportTrace(_ spec: String, _ run: BalanceRun, users: Int, sparing inputs: [String]) throws {
    guard let colon = spec.firstIndex(of: ":"), let user = Int(spec[..<colon]), user >= 0, user < users else {
      throw UsageError("--export-trace takes USER:FILE with USER from 0 to \(users - 1)")
    }
    let text = run.trace(user: user).map(\.jsonLine).joined(separator: "\n") + "\n"
    try Files.write(text, to: String(spec[spec.index(after: colon)...]), sparing: inputs)
  }
}
