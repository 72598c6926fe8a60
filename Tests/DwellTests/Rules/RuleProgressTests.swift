import Dwell
import DwellTesting
import Foundation
import Testing

/// Progress that speaks of periods (``RuleProgress``): a recurring rule counts the current
/// period's figures and says when it resets; a `within` part counts the current period
/// until some period met it. On a manual clock from Monday 2026-03-02 09:00 UTC.
@Suite struct RuleProgressTests {
  static func simulation(_ rules: [Rule]) -> TrackerSimulation {
    var configuration = Tracker.Configuration()
    configuration.rules = rules
    return TrackerSimulation(configuration: configuration)
  }

  /// 3 quizzes a day: 2 by mid-day is 2/3; the third earns today's; at midnight (15 h after
  /// 09:00) a new day starts from zero.
  @Test func aDailyRuleCountsTodayAndResetsAtMidnight() throws {
    let sim = Self.simulation([Rule("daily-quizzes", when: .actions("quiz_done", 3), every: .day)])
    let tracker = sim.tracker
    sim.wait(.hours(3))
    tracker.record(.action("quiz_done", count: 2))
    var progress = try #require(tracker.progress(of: "daily-quizzes"))
    #expect(progress.summary == "2 of 3 times quiz_done today, resets at midnight")
    #expect(progress.remaining == "1 more time quiz_done today")
    #expect(abs(progress.fraction - 2.0 / 3.0) < 1e-9)
    #expect(!progress.isUnlocked)

    tracker.record(.action("quiz_done"))
    progress = try #require(tracker.progress(of: "daily-quizzes"))
    #expect(progress.isUnlocked)
    #expect(progress.fraction == 1)
    #expect(progress.summary == "3 of 3 times quiz_done today, resets at midnight")
    #expect(progress.remaining == "")

    sim.wait(.hours(12))  // 12:00 + 12 h: midnight, Tuesday
    progress = try #require(tracker.progress(of: "daily-quizzes"))
    #expect(!progress.isUnlocked)
    #expect(progress.fraction == 0)
    #expect(progress.summary == "0 of 3 times quiz_done today, resets at midnight")
    #expect(progress.remaining == "3 more times quiz_done today")
  }

  /// A weekly half hour of Lessons: 20 min on Monday and a visit from Sunday 23:50 to
  /// Monday 00:10 give the week of 2026-03-02 30 min (earned at Sunday 23:50 + 10 min,
  /// midnight, as time up to midnight is the ending week's); the new week has the 10 min
  /// after midnight; 5 quizzes a week, 4 by Sunday, start again at 0 on Monday.
  @Test func aWeeklyRuleStartsAgainOnMonday() throws {
    let sim = Self.simulation([
      Rule("weekly-lessons", when: .screenTime("Lessons", .minutes(30)), every: .week),
      Rule("weekly-quizzes", when: .actions("quiz_done", 5), every: .week),
    ])
    let tracker = sim.tracker
    sim.use("Lessons", for: .minutes(20))
    tracker.record(.action("quiz_done", count: 4))
    var lessons = try #require(tracker.progress(of: "weekly-lessons"))
    #expect(lessons.summary == "20 min of 30 min in Lessons this week, resets Monday")
    #expect(abs(lessons.fraction - 2.0 / 3.0) < 1e-9)
    for _ in 0..<6 { sim.nextDay(at: 23) }  // Sunday 2026-03-08 23:00
    sim.wait(.minutes(50))
    let visit = sim.open("Lessons")
    sim.wait(.minutes(5))  // Sunday 23:55: 25 of 30 this week
    lessons = try #require(tracker.progress(of: "weekly-lessons"))
    #expect(lessons.summary == "25 min of 30 min in Lessons this week, resets Monday")
    #expect(lessons.remaining == "5 min in Lessons this week to go")
    var quizzes = try #require(tracker.progress(of: "weekly-quizzes"))
    #expect(quizzes.summary == "4 of 5 times quiz_done this week, resets Monday")
    #expect(abs(quizzes.fraction - 0.8) < 1e-9)

    sim.wait(.minutes(15))  // Monday 2026-03-09 00:10
    sim.close(visit)
    lessons = try #require(tracker.progress(of: "weekly-lessons"))
    #expect(!lessons.isUnlocked)  // earned for last week, not this one
    #expect(lessons.summary == "10 min of 30 min in Lessons this week, resets Monday")
    #expect(abs(lessons.fraction - 1.0 / 3.0) < 1e-9)
    quizzes = try #require(tracker.progress(of: "weekly-quizzes"))
    #expect(quizzes.summary == "0 of 5 times quiz_done this week, resets Monday")
    #expect(quizzes.fraction == 0)
    #expect(tracker.unlocks["weekly-lessons"] == nil)
  }

  /// Half an hour of Lessons in one day, and two Quiz visits: Monday's 20 min show as
  /// 20 of 30 today; Tuesday starts at 0 (not the 20 of Monday); 30 min on Tuesday meet
  /// the part, which stays met on Wednesday, when the day's figure is 0 again.
  @Test func aWithinPartCountsTheCurrentPeriodUntilOneMeetsIt() throws {
    let sim = Self.simulation([
      Rule("focused", when: .all([.within(.day, .screenTime("Lessons", .minutes(30))), .visits("Quiz", 2)]))
    ])
    let tracker = sim.tracker
    sim.use("Lessons", for: .minutes(20))
    var part = try #require(tracker.progress(of: "focused")?.parts.first)
    #expect(part.summary == "20 min of 30 min in Lessons today")
    #expect(part.remaining == "10 min in Lessons today to go")
    #expect(abs(part.fraction - 2.0 / 3.0) < 1e-9)
    #expect(!part.isUnlocked)

    sim.nextDay()
    part = try #require(tracker.progress(of: "focused")?.parts.first)
    #expect(part.summary == "0 min of 30 min in Lessons today")
    sim.use("Lessons", for: .minutes(30))
    sim.nextDay()
    let progress = try #require(tracker.progress(of: "focused"))
    part = try #require(progress.parts.first)
    #expect(part.isUnlocked)
    #expect(part.fraction == 1)
    #expect(part.summary == "30 min of 30 min in Lessons in one day")
    #expect(!progress.isUnlocked)
    #expect(progress.remaining == "2 more visits to Quiz")
  }
}
