import Dwell
import DwellTesting
import Foundation
import Testing

/// Actions, periods and recurring rules (<doc:Accounting>, "Actions and periods"), with
/// figures worked out by hand: a 23-hour DST day, the ISO week 53 across a new year, a
/// recurring earning surviving a crash through the journal, and announced once.
@Suite struct ActionsAndPeriodsTests {
  static func configuration(_ rules: [Rule]) -> Engine.Configuration {
    var configuration = Engine.Configuration()
    configuration.rules = rules
    return configuration
  }

  /// Trace `t` of each earning of `rule`.
  static func earnings(_ report: UsageReport, _ rule: String) -> [Double] {
    report.earnings.filter { $0.rule == rule }.map { Double($0.mono.nanoseconds) / 1e9 }
  }

  /// Berlin, 2026-03-29: clocks go from 02:00 to 03:00, so the day runs 23 hours, from
  /// 2026-03-28T23:00Z to 2026-03-29T22:00Z. Used for 24 hours from its first instant, the
  /// day gets 82,800 s and the next 3,600 s; a daily hour is earned at 3,600 s and again
  /// an hour after the next midnight, at 82,800 + 3,600 = 86,400 s (not 90,000 s).
  @Test func aDayPeriodFollowsTheDSTDay() throws {
    let report = try replay(
      [
        #"{"t":0,"event":"launch","wall":"2026-03-28T23:00:00Z","tz":"Europe/Berlin"}"#,
        #"{"t":0,"event":"active"}"#,
        #"{"t":86400,"event":"background"}"#,
      ],
      configuration: Self.configuration([
        Rule("daily-hour", when: .appTime(.seconds(3600)), every: .day),
        Rule("whole-day", when: .within(.day, .appTime(.seconds(82_800)))),
        Rule("more-than-the-day", when: .within(.day, .appTime(.seconds(83_000)))),
        Rule("daily-whole-day", when: .appTime(.seconds(82_800)), every: .day),
      ]))
    #expect(seconds(report.app.days[day("2026-03-29")] ?? .zero) == 82_800)
    #expect(seconds(report.app.days[day("2026-03-30")] ?? .zero) == 3_600)
    #expect(Self.earnings(report, "daily-hour") == [3_600, 86_400])
    #expect(report.earnings.filter { $0.rule == "daily-hour" }.map(\.period) == ["2026-03-29", "2026-03-30"])
    // Earned for the day that ends at 82,800 s, at that instant.
    #expect(Self.earnings(report, "daily-whole-day") == [82_800])
    #expect(report.earnings.first { $0.rule == "daily-whole-day" }?.period == "2026-03-29")
    // The 23 hours of the day are all credited at its last instant, the next midnight.
    #expect(report.unlocks["whole-day"].map { Double($0.mono.nanoseconds) / 1e9 } == 82_800)
    #expect(report.unlocks["more-than-the-day"] == nil)
  }

  /// 2026 starts on a Thursday, so it has an ISO week 53: Monday 2026-12-28 to Sunday
  /// 2027-01-03, across the new year; 2027-W01 starts on Monday 2027-01-04.
  @Test func theISOWeek53SpansTheNewYear() throws {
    let week = CalendarPeriod.week
    #expect(week.label(of: day("2026-12-28")) == "2026-W53")
    #expect(week.label(of: day("2027-01-03")) == "2026-W53")
    #expect(week.label(of: day("2027-01-04")) == "2027-W01")
    #expect(week.label(of: day("2021-01-01")) == "2020-W53")
    #expect(week.label(of: day("2026-01-01")) == "2026-W01")
    #expect(week.days(containing: day("2027-01-01")) == day("2026-12-28")...day("2027-01-03"))
    #expect(CalendarPeriod.month.days(containing: day("2028-02-10")) == day("2028-02-01")...day("2028-02-29"))
    // Sessions on Tuesday 2026-12-29 and Saturday 2027-01-02 (one week), then two on Monday
    // 2027-01-04 (the next): two weekly earnings; the month of January has its second
    // session on the 4th.
    let report = try replay(
      [
        #"{"t":0,"event":"launch","wall":"2026-12-29T10:00:00Z","tz":"UTC"}"#,
        #"{"t":0,"event":"active"}"#, #"{"t":60,"event":"background"}"#,
        #"{"t":345600,"event":"active"}"#, #"{"t":345660,"event":"background"}"#,
        #"{"t":518400,"event":"active"}"#, #"{"t":518460,"event":"background"}"#,
        #"{"t":522000,"event":"active"}"#, #"{"t":522060,"event":"background"}"#,
      ],
      configuration: Self.configuration([
        Rule("weekly-pair", when: .sessions(2), every: .week),
        Rule("monthly-pair", when: .sessions(2), every: .month),
      ]))
    #expect(Self.earnings(report, "weekly-pair") == [345_600, 522_000])
    #expect(report.earnings.filter { $0.rule == "weekly-pair" }.map(\.period) == ["2026-W53", "2027-W01"])
    #expect(Self.earnings(report, "monthly-pair") == [518_400])
  }

  /// A daily earning at 610 s is journalled at once (the last fold was the `background` at
  /// 600 s, and folds come every 30 s); the crash 2 s later loses it not, and the relaunched engine, whose
  /// figures still meet the rule that day, does not earn it again: one earning, at 610 s,
  /// and its points once.
  @Test func aRecurringEarningSurvivesACrashThroughTheJournal() throws {
    var rule = Rule("daily-ten", when: .appTime(.seconds(610)), points: 5, every: .day)
    rule.title = "Ten minutes"
    let report = try replay(
      [
        #"{"t":0,"event":"launch","wall":"2026-05-04T08:00:00Z","tz":"Europe/Berlin"}"#,
        #"{"t":0,"event":"active"}"#, #"{"t":600,"event":"background"}"#, #"{"t":600,"event":"active"}"#,
        #"{"t":612,"event":"crash"}"#,
        #"{"t":700,"event":"launch"}"#, #"{"t":700,"event":"active"}"#,
        #"{"t":2000,"event":"background"}"#,
      ],
      configuration: Self.configuration([rule]))
    #expect(Self.earnings(report, "daily-ten") == [610])
    #expect(report.points == 5)
  }

  /// Each earning is announced once, after it is saved, with its period; folds and
  /// checkpoints after it announce nothing more. The next day earns (and announces) again.
  @Test func anEarningIsAnnouncedOnce() throws {
    let rig = Rig(
      wall: "2026-05-04T20:00:00Z",
      configuration: Self.configuration([Rule("daily-minute", when: .appTime(.seconds(60)), every: .day)]))
    let heard = Locked<[String]>([])
    let engine = try rig.launch()
    engine.onUnlock { record in heard.withLock { $0.append("\(record.rule) \(record.period ?? "-")") } }
    engine.record(.active)
    rig.advance(120)
    engine.process()
    try engine.commit()
    rig.advance(30)
    try engine.commit()
    #expect(heard.withLock { $0 } == ["daily-minute 2026-05-04"])
    // Berlin's midnight is at 22:00Z: 2 h after the start, the next day earns at 22:01.
    rig.advance(7200 - 150 + 60)
    engine.process()
    try engine.commit()
    #expect(heard.withLock { $0 } == ["daily-minute 2026-05-04", "daily-minute 2026-05-05"])
    engine.terminate()
    // A relaunch announces nothing already announced.
    let again = try rig.launch()
    again.onUnlock { record in heard.withLock { $0.append("again \(record.rule)") } }
    again.record(.active)
    rig.advance(10)
    try again.commit()
    #expect(heard.withLock { $0 }.count == 2)
    again.terminate()
  }

  /// Actions count on the local day of their instant (one at midnight on the new day),
  /// and an action event of count 12 is one instant.
  @Test func actionsCountOnTheDayOfTheirInstant() throws {
    let report = try replay(
      [
        #"{"t":0,"event":"launch","wall":"2026-05-04T21:00:00Z","tz":"Europe/Berlin"}"#,
        #"{"t":10,"event":"action","name":"quiz_done"}"#,
        #"{"t":3600,"event":"action","name":"quiz_done","count":12}"#,
        #"{"t":3601,"event":"background"}"#,
      ],
      configuration: Self.configuration([Rule("dozen", when: .actions("quiz_done", 13))]))
    let quiz = try #require(report.actions["quiz_done"])
    #expect(quiz.count == 13)
    #expect(quiz.days == [day("2026-05-04"): 1, day("2026-05-05"): 12])
    #expect(report.unlocks["dozen"].map { Double($0.mono.nanoseconds) / 1e9 } == 3600)
  }
}
