import DwellTesting
import Foundation
import Testing

// `dwell balance` as an economy tool: the simulated calendar, and comparisons whose
// differences add up to the figures they show (#26 item 4, #24 item 4).
@testable import Dwell
@testable import DwellBalance

@Suite struct BalanceEconomyTests {
  /// Runs `path` over `users` users of the test personas.
  static func report(_ path: String, users: Int, days: Int, seed: UInt64, start: Day? = nil) async throws
    -> BalanceReport
  {
    let population = try BalanceTests.population()
    let pack = try BalancePack(path: path)
    var run = BalanceRun(pack: pack, population: population, users: users, days: days, seed: seed, threads: 2)
    if let start { run.start = start }
    return BalanceReport(stats: try await run.run(), pack: pack, population: population, seed: seed)
  }

  /// Tenths of a percent from a cell as the comparison shows it (`33.4%`, `+1.2`, `0`).
  static func tenths(_ cell: Substring) -> Int? {
    var text = String(cell)
    if text.hasSuffix("%") { text.removeLast() }
    let sign = text.hasPrefix("-") ? -1 : 1
    if text.hasPrefix("-") || text.hasPrefix("+") { text.removeFirst() }
    if text == "0" { return 0 }
    let parts = text.split(separator: ".")
    guard parts.count == 2, let whole = Int(parts[0]), let tenth = Int(parts[1]), parts[1].count == 1 else {
      return nil
    }
    return sign * (whole * 10 + tenth)
  }

  /// Every share in the comparison's text is shown to a tenth, and each DIFF is the new
  /// figure minus the old one as shown (`33% 35% +1` and `<1% <1% +1` did not add up).
  @Test func comparisonDifferencesAreTheShownFiguresSubtracted() async throws {
    let directory = TemporaryStore()
    var paths: [String] = []
    for (name, seconds) in [("old", 1800), ("new", 1700)] {
      let rules = (1...12).map { #"{"id":"r\#($0)","when":{"screen":"Lessons","seconds":\#($0 * seconds / 4)}}"# }
      let path = directory.directory + "/\(name).json"
      try "[\(rules.joined(separator: ","))]".write(toFile: path, atomically: true, encoding: .utf8)
      paths.append(path)
    }
    var reports: [BalanceReport] = []
    for path in paths { reports.append(try await Self.report(path, users: 300, days: 14, seed: 3)) }
    let table = BalanceComparison(old: reports[0], new: reports[1]).table
    var checked = 0
    for line in table.split(separator: "\n") {
      #expect(line.count <= 80, "\(line)")
      let cells = line.split(separator: " ")
      guard let id = cells.first, id.hasPrefix("r"), cells.count == 8 else { continue }
      for mark in 0..<2 {
        let values = cells[(1 + mark * 3)...(3 + mark * 3)].map(Self.tenths)
        guard let old = values[0], let new = values[1], let diff = values[2] else {
          Issue.record("\(line): not a share shown to a tenth")
          continue
        }
        #expect(new - old == diff, "\(line)")
        checked += 1
      }
    }
    #expect(checked == 24, "\(table)")
    #expect(table.contains("D7 OLD") && table.contains("D14 OLD"))
    #expect(table.contains("POINTS p50"))
  }

  /// Points, levels and notifications of both packs appear side by side in the text (and
  /// so in the page, which shows it), each with a difference.
  @Test func comparisonShowsPointsLevelsAndNotificationsOfBoth() async throws {
    let learning = BalanceTests.path("rules/learning")
    let old = try await Self.report(learning, users: 40, days: 8, seed: 5)
    let new = try await Self.report(learning + "/achievements.lua", users: 40, days: 8, seed: 5)
    let comparison = BalanceComparison(old: old, new: new)
    let table = comparison.table
    for level in old.levels { #expect(table.contains("\n" + level), "level \(level) missing") }
    #expect(table.contains("NOTIFICATION (posted)"))
    for note in old.notifications {
      let line = try #require(table.split(separator: "\n").first { $0.hasPrefix(note.key.prefix(43)) })
      let cells = line.split(separator: " ").suffix(3).map { Int($0.replacingOccurrences(of: ",", with: "")) }
      #expect(cells[0] == note.fired && cells[1] == 0 && cells[2] == -note.fired, "\(line)")
    }
    #expect(comparison.html.contains(BalanceReport.escape(table)))
  }

  /// `start` moves the calendar: a June event never unlocks for users who install in
  /// January, and does for users who install in June; the generated trace is dated so.
  @Test func startSetsTheSimulatedCalendar() async throws {
    let directory = TemporaryStore()
    let pack = directory.directory + "/summer.lua"
    try """
    unlock "summer" { from = "2026-06-01", to = "2026-06-30", when = { appSeconds = 60 } }
    unlock "any-minute" { when = { appSeconds = 60 } }
    """.write(toFile: pack, atomically: true, encoding: .utf8)
    let january = try await Self.report(pack, users: 30, days: 10, seed: 4)
    let june = try #require(Day("2026-06-01"))
    let summer = try await Self.report(pack, users: 30, days: 10, seed: 4, start: june)
    #expect(january.rules[0].shares.last == 0, "a June event unlocked in January")
    #expect((summer.rules[0].shares.last ?? 0) > 0.5)
    #expect(summer.rules[1].shares == january.rules[1].shares, "the same users, whatever the calendar")
    var run = BalanceRun(
      pack: try BalancePack(path: pack), population: try BalanceTests.population(), users: 30, days: 10, seed: 4)
    run.start = june
    guard case .launch(let wall?, _) = run.trace(user: 0).first?.kind else {
      Issue.record("a life starts with a dated launch")
      return
    }
    let first = Int64(june.ordinal) * UserLife.day
    #expect(wall.nanosecondsSince1970 >= first && wall.nanosecondsSince1970 < first + 8 * UserLife.day)
  }

  @Test func commandTakesStartAndRefusesABadDate() throws {
    let directory = TemporaryStore()
    let personas = try CommandLineTests.write(BalanceTests.personas, to: directory, name: "personas.lua")
    let pack = try CommandLineTests.write(
      #"unlock "summer" { from = "2026-06-01", to = "2026-06-30", when = { appSeconds = 60 } }"#, to: directory,
      name: "summer.lua")
    let common = ["balance", pack, "--personas", personas, "--users", "10", "--days", "5", "--json"]
    let june = try CommandLineTests.dwell(common + ["--start", "2026-06-01"])
    #expect(june.status == 0, "\(june.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(june.stdout.utf8)) as? [String: Any]
    let rule = (json?["rules"] as? [[String: Any]])?.first
    #expect(((rule?["shares"] as? [Double])?.last ?? 0) > 0, "\(june.stdout.prefix(400))")
    for bad in ["2026-13-01", "June", "1900-01-01"] {
      let refused = try CommandLineTests.dwell(common + ["--start", bad])
      #expect(refused.status == 2 && refused.stderr.contains("--start takes a date"), "\(bad): \(refused.stderr)")
    }
  }

  /// A persona file that declares personas in a loop is refused at the bound, quickly
  /// (each persona republished the list: 20,000 took the load's whole time limit).
  @Test func floodingPersonaFileIsRefusedAtItsBound() throws {
    let text = "for i = 1, 100000 do persona(\"p\" .. i) { screens = { A = {} } } end"
    let start = ContinuousClock.now
    #expect {
      try PersonaFile.parse(text, file: "flood.lua")
    } throws: { error in
      "\(error)".contains("flood.lua:1: more than \(PersonaFile.maximumPersonas) personas")
    }
    #expect(ContinuousClock.now - start < .seconds(5))
    let most = "for i = 1, \(PersonaFile.maximumPersonas) do persona(\"p\" .. i) { screens = { A = {} } } end"
    #expect(try PersonaFile.parse(most, file: "most.lua").personas.count == PersonaFile.maximumPersonas)
  }
}
