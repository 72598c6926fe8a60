// A recurring rule's Lua check sees the current period's figures (`period_seconds`,
// `period_sessions`, `period_visits`, `period_count`), worked out by hand; an ordinary
// rule's check sees none of them.
import DwellLua
import Testing

@testable import Dwell

@Suite struct PeriodFiguresInChecksTests {
  static let pack = """
    unlock "daily-quizzes" { every = "day", check = function(u)
      return u.action("quiz_done").period_count >= 2 and u.app.period_seconds >= 60
    end }
    unlock "daily-lesson" { every = "day", check = function(u)
      return u.screen("Lessons").period_visits >= 1 and u.screen("Lessons").period_seconds >= 30
        and u.app.period_sessions >= 1
    end }
    unlock "no-period" { check = function(u)
      return u.app.period_seconds == nil and u.action("quiz_done").period_count == nil
        and u.screen("Lessons").period_visits == nil
    end }
    """

  /// UTC days. Day 1: two quizzes at 10 s, 60 s of app time at 60 s: "daily-quizzes" at 60.
  /// Lessons from 20 s: 30 s in it at 50 s, a visit and a session today: "daily-lesson" at
  /// 50. Day 2 starts at 86,400 s; the app is active again from 90,000 s. Counted all
  /// time, both would hold at once then; counted within day 2, the second quiz comes at
  /// 90,020 and 60 s of day 2's time at 90,060 ("daily-quizzes"), and Lessons, seen from
  /// 90,100, has 30 s of day 2 at 90,130 ("daily-lesson").
  @Test func aRecurringChecksFiguresAreThePeriods() throws {
    let pack = try LuaRulePack(scripts: [("pack.lua", Self.pack)])
    let report = try replay(
      [
        #"{"t":0,"event":"launch","wall":"2026-05-04T00:00:00Z","tz":"UTC"}"#,
        #"{"t":0,"event":"active"}"#,
        #"{"t":10,"event":"action","name":"quiz_done","count":2}"#,
        #"{"t":20,"event":"appear","screen":"Lessons","id":"l1"}"#,
        #"{"t":200,"event":"disappear","id":"l1"}"#,
        #"{"t":300,"event":"background"}"#,
        #"{"t":90000,"event":"active"}"#,
        #"{"t":90010,"event":"action","name":"quiz_done"}"#,
        #"{"t":90020,"event":"action","name":"quiz_done"}"#,
        #"{"t":90100,"event":"appear","screen":"Lessons","id":"l2"}"#,
        #"{"t":90300,"event":"background"}"#,
      ], configuration: RuleSet(pack: pack).configuration(base: .init()))
    func earned(_ rule: String) -> [Double] {
      report.earnings.filter { $0.rule == rule }.map { Double($0.mono.nanoseconds) / 1e9 }
    }
    #expect(earned("daily-quizzes") == [60, 90_060])
    #expect(earned("daily-lesson") == [50, 90_130])
    #expect(report.unlocks["no-period"].map { Double($0.mono.nanoseconds) / 1e9 } == 0)
    #expect(pack.diagnostics.isEmpty)
  }
}
