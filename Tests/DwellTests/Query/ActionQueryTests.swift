import Dwell
import DwellLua
import DwellTesting
import Foundation
import Testing

/// What apps and scripts read of actions: `count(ofAction:in:)`, and a scripted check's
/// `u.action(name).count` and `.today_count`.
@Suite struct ActionQueryTests {
  /// Berlin, from 23:59:50 local on 2026-05-04: 2 quizzes that day, 3 (one action event
  /// of count 3) at 00:00:10 the next.
  @Test func anActionsCountIsAskedByPeriod() throws {
    let rig = Rig(wall: "2026-05-04T21:59:50Z")
    let engine = try rig.launch()
    engine.record(.active)
    engine.record(.action("quiz_done"))
    engine.record(.action("quiz_done"))
    rig.advance(20)
    engine.record(.action("quiz_done", count: 3))
    engine.record(.action("ignored", count: 0))
    engine.record(.action("", count: 4))
    engine.process()
    #expect(engine.count(ofAction: "quiz_done") == 5)
    #expect(engine.count(ofAction: "quiz_done", in: .today) == 3)
    #expect(engine.count(ofAction: "quiz_done", in: .yesterday) == 2)
    #expect(engine.count(ofAction: "quiz_done", in: .day(day("2026-05-04"))) == 2)
    #expect(engine.count(ofAction: "quiz_done", in: .lastDays(2)) == 5)
    #expect(engine.count(ofAction: "ignored") == 0)
    #expect(engine.count(ofAction: "never") == 0)
    engine.terminate()
    // Saved: a relaunch reads the same.
    let again = try rig.launch()
    #expect(again.count(ofAction: "quiz_done") == 5)
    #expect(again.count(ofAction: "quiz_done", in: .today) == 3)
    again.terminate()
  }

  /// A check sees the action's total and today's count: `u.action("quiz_done").count >= 3`
  /// and `today_count >= 2` hold at the third quiz, the second of the new day (t = 30).
  @Test func aScriptedCheckReadsActions() throws {
    let pack = try LuaRulePack(
      scripts: [
        (
          "rules.lua",
          """
          unlock "quizzer" { check = function(u)
            local q = u.action("quiz_done")
            return q.count >= 3 and q.today_count >= 2 and u.action("never").count == 0
          end }
          """
        )
      ])
    var configuration = Engine.Configuration()
    configuration.rules = pack.rules
    let report = try replay(
      [
        #"{"t":0,"event":"launch","wall":"2026-05-04T21:59:50Z","tz":"Europe/Berlin"}"#,
        #"{"t":1,"event":"action","name":"quiz_done"}"#,
        #"{"t":5,"event":"action","name":"quiz_done"}"#,
        #"{"t":20,"event":"action","name":"quiz_done"}"#,
        #"{"t":30,"event":"action","name":"quiz_done"}"#,
        #"{"t":31,"event":"background"}"#,
      ], configuration: configuration)
    #expect(report.unlocks["quizzer"].map { Double($0.mono.nanoseconds) / 1e9 } == 30)
  }
}

/// An action recorded in the background, with nothing else to follow, is applied by the
/// writer and made durable by the checkpoint after it: a crash 3 s later keeps it.
@Suite struct BackgroundActionTests {
  @Test func anActionInTheBackgroundIsAppliedAndSaved() throws {
    let store = TemporaryStore()
    let engine = try Engine(store: Store(path: store.path))
    engine.record(.active)
    engine.record(.background)
    try engine.commit()
    usleep(2_500_000)  // past every timer the active time scheduled: nothing runs on its own now
    engine.record(.action("download_done"))
    var polls = 0
    while engine.waitingEvents > 0, polls < 300 {
      usleep(10_000)
      polls += 1
    }
    #expect(engine.waitingEvents == 0, "the action waits for another event")
    usleep(3_000_000)  // the checkpoint interval (2 s) and some
    engine.abandon()
    let relaunched = try Engine(store: Store(path: store.path))
    #expect(relaunched.count(ofAction: "download_done") == 1)
    relaunched.terminate()
  }
}
