import DwellTesting
import Foundation
import Testing

// The economy in a balance report (#24 item 4, #26 items 2 and 4): recurring earnings by
// persona, levels by persona and day (in the comparison too), and the progress of the
// users without a rule, a plugin's `p.progress` included; every figure computed by hand.
@testable import Dwell
@testable import DwellBalance

@Suite struct BalanceLedgerTests {
  /// Two personas of one exact session a day (300 s active, two stays on B): "quizzer"
  /// performs two quizzes a session, "lazy" one.
  static let personas = """
    local screens = { A = { stay = 60, next = { B = 1 } }, B = { stay = 60, next = { A = 1 } } }
    persona "quizzer" { daily = 1, churn = 0, sessions = 1, sessionLength = 300, screens = screens, start = "A",
                        actions = { quiz_done = { count = 2 } } }
    persona "lazy" { daily = 1, churn = 0, sessions = 1, sessionLength = 300, screens = screens, start = "A",
                     actions = { quiz_done = { count = 1 } } }
    """

  /// A daily quest of two quizzes worth `points`, levels at 10 and 40 points.
  static func pack(points: Int) -> String {
    """
    achievement "daily-two" { every = "day", points = \(points), when = { action = "quiz_done", count = 2 } }
    unlock "hour" { when = { appSeconds = 3600 } }
    levels { { "Seed", 0 }, { "Sprout", 10 }, { "Tree", 40 } }
    """
  }

  static func report(_ pack: String, _ personas: String = personas, users: Int = 8, days: Int = 10) async throws
    -> BalanceReport
  {
    try await BalanceActionsTests.report(pack, personas, users: users, days: days, seed: 3)
  }

  /// The quizzer earns the daily quest on each of the 10 days, the lazy persona on none:
  /// by persona 1, 7 and 10 earnings per user by day 1, 7 and 10, one a day, and a spread
  /// of 10/10/10 against 0/0/0.
  @Test func recurringEarningsByPersonaAndUser() async throws {
    let report = try await Self.report(Self.pack(points: 5))
    let quest = try #require(report.rules.first)
    let quizzers = Double(report.personas[0].users)
    #expect(quizzers > 0 && report.personas[1].users > 0, "both personas drawn")
    #expect(quest.personaEarnings == [[1, 7, 10], [0, 0, 0]])
    #expect(quest.personaEarningSpread == [.init(p10: 10, p50: 10, p90: 10), .init(p10: 0, p50: 0, p90: 0)])
    #expect(zip(quest.earnings, [1, 7, 10].map { $0 * quizzers / 8 }).allSatisfy { abs($0 - $1) < 1e-9 })
    let table = report.table()
    #expect(table.contains("  quizzer                     1.0   7.0  10.0      1.0 a day      10/10/10"), "\(table)")
    #expect(table.contains("  lazy                        0.0   0.0   0.0      0.0 a day         0/0/0"), "\(table)")
    for line in table.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
    let json = report.json.rendered(pretty: false)
    #expect(json.contains(#""earningsByPersona":[{"name":"quizzer","perUser":[1,7,10],"perUserPerPeriod":1,"#))
    #expect(json.contains(#""spread":{"p10":10,"p50":10,"p90":10}"#))
    // The CSV has the same figures: earnings by day 1, 7 and 10, then the spread.
    let csv = report.csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    let header = csv[0].map(String.init)
    let earnings = try #require(header.firstIndex(of: "earnings_day1"))
    #expect(
      Array(header[earnings..<earnings + 6]) == [
        "earnings_day1", "earnings_day7", "earnings_day10", "earnings_p10", "earnings_p50", "earnings_p90",
      ])
    let quizzer = try #require(csv.first { $0.count > 5 && $0[0] == "daily-two" && $0[5] == "quizzer" })
    #expect(quizzer[earnings..<earnings + 6].map(String.init) == ["1", "7", "10", "10", "10", "10"])
    let lazy = try #require(csv.first { $0.count > 5 && $0[0] == "daily-two" && $0[5] == "lazy" })
    #expect(lazy[earnings..<earnings + 6].map(String.init) == ["0", "0", "0", "0", "0", "0"])
    // A rule earned once has no earnings there.
    let hour = try #require(csv.first { $0.count > 5 && $0[0] == "hour" && $0[5] == "all" })
    #expect(hour[earnings..<earnings + 6].allSatisfy { $0.isEmpty })
    #expect(csv.allSatisfy { $0.count == header.count })
  }

  /// 5 points a day: 5, 35 and 50 by day 1, 7 and 10, so Seed, Sprout and Tree for the
  /// quizzer; the lazy persona stays a Seed.
  @Test func levelsByPersonaAndDay() async throws {
    let report = try await Self.report(Self.pack(points: 5))
    #expect(report.personas.map(\.medianLevels) == [[0, 1, 2], [0, 0, 0]])
    #expect(report.personas[0].levelShares[6] == [0, 1, 0] && report.personas[1].levelShares[9] == [1, 0, 0])
    let table = report.table()
    #expect(table.contains("quizzer                     Seed          Sprout            Tree"), "\(table)")
    let json = report.json.rendered(pretty: false)
    #expect(json.contains(#""medianLevels":["Seed","Sprout","Tree"]"#), "\(json.prefix(2000))")
  }

  /// 10 points a day instead of 5: the quizzer is a Tree (3) by day 7 rather than a Sprout
  /// (2), the same Tree by day 10; the comparison shows each persona's level side by side.
  @Test func theComparisonShowsLevelsByPersona() async throws {
    let old = try await Self.report(Self.pack(points: 5))
    let new = try await Self.report(Self.pack(points: 10))
    let comparison = BalanceComparison(old: old, new: new)
    let table = comparison.table
    let section = try #require(table.components(separatedBy: "LEVEL p50").dropFirst().first)
    #expect(section.contains("\nquizzer                    2     3    +1       3     3     0"), "\(table)")
    #expect(section.contains("\nlazy                       1     1     0       1     1     0"), "\(table)")
    #expect(section.contains("1 Seed, 2 Sprout, 3 Tree"))
    for line in table.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
    // The page has the same table and both packs' levels.
    let page = comparison.html
    #expect(page.contains(BalanceReport.escape(table)))
    #expect(page.contains("<svg id=\"old-levels\"") && page.contains("<svg id=\"levels\""))
  }

  /// The progress of those without a rule, by day: an hour in the app at 300 s a day is
  /// 8% (300/3600) after day 1, 58% after day 7, 83% after day 10; a plugin counting stays
  /// on B (two a day) towards 30 reports 6%, 46% and 66% (2, 14 and 20 of 30, whole
  /// percents), marked as its plugin's; a scripted check no plugin reports shows none.
  @Test func progressOfUsersWithoutARule() async throws {
    let pack = """
      unlock "hour" { when = { appSeconds = 3600 } }
      unlock "thirty-b" { check = function(u) return false end }
      unlock "silent" { check = function(u) return false end }
      local b = plugin "b-counter"
      b.on("screen_enter", function(u, screen)
        if screen ~= "B" then return end
        b.state.n = (b.state.n or 0) + 1
        b.progress("thirty-b", b.state.n / 30, b.state.n .. " of 30 stays on B")
        if b.state.n == 30 then b.unlock("thirty-b") end
      end)
      """
    let report = try await Self.report(pack, users: 4)
    let rows = Dictionary(uniqueKeysWithValues: report.rules.map { ($0.info.id, $0) })
    #expect(rows["hour"]?.progress == [0.08, 0.58, 0.83])
    #expect(rows["hour"]?.progressByPlugin == false)
    #expect(rows["thirty-b"]?.progress == [0.06, 0.46, 0.66])
    #expect(rows["thirty-b"]?.progressByPlugin == true)
    #expect(rows["silent"]?.progress == [nil, nil, nil])
    let table = report.table()
    #expect(table.contains("thirty-b                 p     6%   46%   66%"), "\(table)")
    #expect(table.contains("hour                           8%   58%   83%"), "\(table)")
    let progress = try #require(table.components(separatedBy: "PROGRESS p50").dropFirst().first)
    #expect(!progress.components(separatedBy: "PERSONA")[0].contains("silent"), "a check no plugin reports shows none")
    let json = report.json.rendered(pretty: false)
    #expect(json.contains(#""progressByPlugin":true,"progressWithoutIt":[0.06,0.46,0.66]"#))
    let csv = report.csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    let column = try #require(csv[0].firstIndex(of: "progress_without_day1"))
    func withoutIt(_ id: String) -> [String]? {
      csv.first { $0.count > column + 2 && $0[0] == id && $0[5] == "all" }.map { $0[column...].map(String.init) }
    }
    #expect(withoutIt("thirty-b") == ["0.06", "0.46", "0.66"])
    #expect(withoutIt("hour") == ["0.08", "0.58", "0.83"])
    #expect(withoutIt("silent") == ["", "", ""])
    // Unlocked by everyone: none left without it.
    let easy = try await Self.report(#"unlock "one" { when = { appSeconds = 60 } }"#, users: 2, days: 3)
    #expect(easy.rules[0].progress == [nil, nil])
  }
}
