// dwell rules check on actions and periods: every form said in words, Lua's words pointed to Dwell's.
import Dwell
import DwellTesting
import Foundation
import Testing

@Suite struct RulesCheckPeriodsTests {
  /// Recurring rules, dates, actions, `within` and gates, in Lua and in JSON, each said in
  /// words by `dwell rules check`.
  @Test func actionsAndPeriodsAreExplainedInWords() throws {
    let dir = TemporaryStore()
    let pack = try CommandLineTests.write(
      """
      achievement "daily-calm" { every = "day", points = 10, when = { appSeconds = minutes(10) } }
      unlock "winter" { from = "2026-12-20", to = "2026-12-31", when = { appSeconds = hours(1) } }
      unlock "advent" { every = "week", from = "2026-12-01", when = { action = "quiz_done", count = 5 } }
      unlock "quizzer" { when = { action = "quiz_done", count = 5, within = "day" } }
      unlock "advanced" { when = { all = { { unlocked = "quizzer" }, { sessions = 2 } } } }
      unlock "last-call" { to = "2026-06-30", when = { sessions = 3 } }
      """, to: dir, name: "p.lua")
    let run = try CommandLineTests.dwell(["rules", "check", pack])
    #expect(run.status == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(lines.contains("daily-calm: every day: 10 min in the app (10 points each time)"), "\(run.stdout)")
    #expect(lines.contains("winter: from 2026-12-20 to 2026-12-31: unlocks after 1 h in the app"))
    #expect(lines.contains("advent: every week from 2026-12-01: 5 × quiz_done"))
    #expect(lines.contains("quizzer: unlocks after 5 × quiz_done in one day"))
    #expect(lines.contains("advanced: unlocks after 'quizzer' unlocked and 2 sessions"))
    #expect(lines.contains("last-call: up to 2026-06-30: unlocks after 3 sessions"))

    let json = try CommandLineTests.write(
      #"[{"id":"daily","every":"day","when":{"action":"quiz_done","count":3}},"#
        + #"{"id":"x","from":"2026-12-20","to":"2026-12-31","when":{"appSeconds":3600}}]"#, to: dir, name: "r.json")
    let fromJSON = try CommandLineTests.dwell(["rules", "check", json])
    #expect(fromJSON.status == 0, "\(fromJSON.stdout)\(fromJSON.stderr)")
    #expect(fromJSON.stdout.contains("daily: every day: 3 × quiz_done"), "\(fromJSON.stdout)")
    #expect(fromJSON.stdout.contains("x: from 2026-12-20 to 2026-12-31: unlocks after 1 h in the app"))
  }

  /// `repeat` and `until`, Lua's words (reserved there), are answered with the keys to
  /// write, `every` and `to`, in Lua and in JSON.
  @Test func luaWordsForPeriodsNameEveryAndTo() throws {
    let dir = TemporaryStore()
    let cases: [(name: String, text: String, said: String)] = [
      (
        "a.lua", #"unlock "a" { repeat = "day", when = { sessions = 1 } }"#,
        "the key is 'every'; write every = \"day\""
      ),
      (
        "b.lua", #"unlock "b" { from = "2026-12-20", until = "2026-12-31", when = { sessions = 1 } }"#,
        "the key is 'to'; write to = \"2026-12-31\""
      ),
      ("c.json", #"[{"id":"c","repeat":"day","when":{"sessions":1}}]"#, "unknown key 'repeat' (did you mean 'every'?)"),
      (
        "d.json", #"[{"id":"d","until":"2026-12-31","when":{"sessions":1}}]"#,
        "unknown key 'until' (did you mean 'to'?)"
      ),
    ]
    for item in cases {
      let path = try CommandLineTests.write(item.text, to: dir, name: item.name)
      let run = try CommandLineTests.dwell(["rules", "check", path])
      #expect(run.status == 1, "\(item.name): \(run.stdout)")
      #expect((run.stdout + run.stderr).contains(item.said), "\(item.name): \(run.stdout)\(run.stderr)")
    }
  }
}
