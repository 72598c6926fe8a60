// dwell report and dwell export on a store with actions and a recurring rule's earnings.
import Foundation
import Testing

@Suite struct ReportActionsTests {
  /// Two days: quiz_done 2 times on the first, 3 on the second; ten minutes each day earn
  /// the daily rule (7 points) for each day.
  static let trace = """
    {"t":0,"event":"launch","wall":"2026-05-04T08:00:00Z","tz":"UTC"}
    {"t":0,"event":"appear","screen":"Home","id":"a"}
    {"t":0,"event":"active"}
    {"t":10,"event":"action","name":"quiz_done","count":2}
    {"t":700,"event":"background"}
    {"t":86400,"event":"foreground"}
    {"t":86400,"event":"active"}
    {"t":86410,"event":"action","name":"quiz_done","count":3}
    {"t":86420,"event":"action","name":"page, \\"read\\""}
    {"t":87100,"event":"terminate"}
    """
  static let rules = #"achievement "daily" { every = "day", points = 7, when = { appSeconds = minutes(10) } }"#

  /// A store replayed from ``trace`` with ``rules``, in `dir`.
  static func store(_ dir: TemporaryStore) throws -> String {
    let trace = try CommandLineTests.write(Self.trace, to: dir, name: "t.jsonl")
    let rules = try CommandLineTests.write(Self.rules, to: dir, name: "r.lua")
    let replay = try CommandLineTests.dwell(["replay", trace, "--rules", rules, "--store", dir.path])
    try #require(replay.status == 0, "\(replay.stderr)")
    return dir.path
  }

  @Test func theReportShowsActionsPerDayAndEarnings() throws {
    let dir = TemporaryStore()
    let store = try Self.store(dir)
    let run = try CommandLineTests.dwell(["report", store, "--html", dir.directory + "/r.html"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("Actions, last 14 days"), "\(run.stdout)")
    #expect(run.stdout.contains("quiz_done     5 in all · 2026-05-04 2 · 2026-05-05 3"), "\(run.stdout)")
    #expect(run.stdout.contains("Recurring rules earned (2 times)"))
    #expect(run.stdout.contains("★ daily  for 2026-05-04  at 2026-05-04T08:10:00Z  +7 points"), "\(run.stdout)")
    #expect(run.stdout.contains("★ daily  for 2026-05-05  at 2026-05-05T08:10:00Z  +7 points"))
    #expect(run.stdout.contains("Points 14"))
    let html = try String(contentsOfFile: dir.directory + "/r.html", encoding: .utf8)
    #expect(html.contains("<h2>Actions per day</h2>"))
    #expect(html.contains("<tr><td>quiz_done</td><td>2</td><td>3</td><td><b>5</b></td></tr>"), "\(html)")
    #expect(html.contains("<td>page, &quot;read&quot;</td>") || html.contains("<td>page, \"read\"</td>"))
    #expect(html.contains("<td>★ daily</td><td>2026-05-05</td><td>2026-05-05T08:10:00Z</td><td>+7 points</td>"))
  }

  @Test func theExportHasActionAndEarningRows() throws {
    let dir = TemporaryStore()
    let store = try Self.store(dir)
    let csv = try CommandLineTests.dwell(["export", store, "--format", "csv"])
    #expect(csv.status == 0)
    let rows = csv.stdout.split(separator: "\r\n").map(String.init)
    #expect(rows.contains("action,,2026-05-04,,,,,,,,,,2,quiz_done,"), "\(rows)")
    #expect(rows.contains("action,,2026-05-05,,,,,,,,,,3,quiz_done,"))
    #expect(rows.contains(#"action,,2026-05-05,,,,,,,,,,1,"page, ""read""","#))
    #expect(rows.contains("earning,,,2026-05-04T08:10:00.000Z,,,daily,,7,,,,,,2026-05-04"), "\(rows)")
    #expect(rows.filter { $0.hasPrefix("earning,") }.count == 2)
    #expect(rows.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count >= 15 })
    let json = try CommandLineTests.dwell(["export", store, "--format", "json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let actions = try #require(object["actions"] as? [[String: Any]])
    #expect(actions.count == 3)
    #expect(actions.first?["action"] as? String == "quiz_done")
    #expect(actions.first?["day"] as? String == "2026-05-04")
    #expect(actions.first?["count"] as? Int == 2)
    let earnings = try #require(object["earnings"] as? [[String: Any]])
    #expect(earnings.map { $0["period"] as? String } == ["2026-05-04", "2026-05-05"])
    #expect(earnings.first?["earnedAt"] as? String == "2026-05-04T08:10:00.000Z")
    #expect(earnings.first?["points"] as? Int == 7)
    #expect(earnings.first?["rule"] as? String == "daily")
  }
}
