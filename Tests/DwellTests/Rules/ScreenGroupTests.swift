import Dwell
import DwellLua
import DwellTesting
import Foundation
import Testing

/// Screen groups (`screens = { "Breathe", "Meditate" }`, <doc:Accounting>): the time while
/// any of the screens is visible, counted once; visits added up. Figures worked out by hand.
@Suite struct ScreenGroupTests {
  static let calm = Condition.group(["Breathe", "Meditate"])

  static func configuration(_ rules: [Rule]) -> Engine.Configuration {
    var configuration = Engine.Configuration()
    configuration.rules = rules
    return configuration
  }

  static func unlocks(_ report: UsageReport) -> [String: Double] {
    report.unlocks.mapValues { Double($0.mono.nanoseconds) / 1e9 }
  }

  /// Two scenes: Breathe visible 10-70 s, Meditate 40-100 s (60 s each). The group's time is
  /// the union, 10-100 s = 90 s, reached at 100 s; their sum (120 s) would have reached 90 s
  /// at 70 s (30 s alone, then 2 s a second). Visits: 2, the second at 40 s.
  static let twoScenes = [
    #"{"t":0,"event":"launch","wall":"2026-05-04T08:00:00Z","tz":"UTC"}"#, #"{"t":0,"event":"active"}"#,
    #"{"t":10,"event":"appear","screen":"Breathe","id":"b"}"#,
    #"{"t":40,"event":"appear","screen":"Meditate","id":"m"}"#, #"{"t":70,"event":"disappear","id":"b"}"#,
    #"{"t":100,"event":"disappear","id":"m"}"#, #"{"t":130,"event":"background"}"#,
  ]

  @Test func twoScreensVisibleAtOnceCountOnce() throws {
    let report = try replay(
      Self.twoScenes,
      configuration: Self.configuration([
        Rule("calm-90", when: .screenTime(Self.calm, .seconds(90))),
        Rule("calm-91", when: .screenTime(Self.calm, .seconds(91))),
        Rule("calm-visits", when: .visits(Self.calm, 2)),
      ]))
    #expect(Self.unlocks(report) == ["calm-90": 100, "calm-visits": 40])
    // The group is no screen of the app's: the report has the two screens only.
    #expect(report.screens.keys.sorted() == ["Breathe", "Meditate"])
    #expect(seconds(report.screens["Breathe"]?.time ?? .zero) == 60)
  }

  /// Back to back: Breathe 0-30 s, Meditate 30-75 s (shown before Breathe left, at the same
  /// instant), Breathe again 75-100 s (after Meditate left). The group runs 0-100 s without a
  /// gap or an overlap: 100 s, reached at 100 s (and 50 s at 50 s); 3 visits, the third at 75 s.
  @Test func backToBackScreensOfAGroupAreNotCountedTwiceAtTheSwitch() throws {
    let report = try replay(
      [
        #"{"t":0,"event":"launch","wall":"2026-05-04T08:00:00Z","tz":"UTC"}"#, #"{"t":0,"event":"active"}"#,
        #"{"t":0,"event":"appear","screen":"Breathe","id":"b1"}"#,
        #"{"t":30,"event":"appear","screen":"Meditate","id":"m"}"#, #"{"t":30,"event":"disappear","id":"b1"}"#,
        #"{"t":75,"event":"disappear","id":"m"}"#, #"{"t":75,"event":"appear","screen":"Breathe","id":"b2"}"#,
        #"{"t":100,"event":"disappear","id":"b2"}"#, #"{"t":100,"event":"background"}"#,
      ],
      configuration: Self.configuration([
        Rule("calm-50", when: .screenTime(Self.calm, .seconds(50))),
        Rule("calm-100", when: .screenTime(Self.calm, .seconds(100))),
        Rule("calm-101", when: .screenTime(Self.calm, .seconds(101))),
        Rule("calm-visits", when: .visits(Self.calm, 3)),
      ]))
    #expect(Self.unlocks(report) == ["calm-50": 50, "calm-100": 100, "calm-visits": 75])
    #expect(seconds(report.screens["Breathe"]?.time ?? .zero) == 55)
    #expect(seconds(report.screens["Meditate"]?.time ?? .zero) == 45)
  }

  /// Berlin, launched at 23:50 local (21:50Z), midnight at 600 s. Breathe 0-300 s, Meditate
  /// 280-900 s: the group runs 0-900 s, 600 s on 05-04 (reached exactly at midnight: earned for
  /// that day, at 600 s) and 300 s on 05-05. Their sum would have made 600 s by 580 s. Back at
  /// 1,200 s, Meditate 1,200-1,600 s: 05-05 reaches 600 s at 1,500 s, its earning.
  @Test func aDailyGroupRuleAcrossMidnight() throws {
    let report = try replay(
      [
        #"{"t":0,"event":"launch","wall":"2026-05-04T21:50:00Z","tz":"Europe/Berlin"}"#,
        #"{"t":0,"event":"active"}"#, #"{"t":0,"event":"appear","screen":"Breathe","id":"b"}"#,
        #"{"t":280,"event":"appear","screen":"Meditate","id":"m1"}"#, #"{"t":300,"event":"disappear","id":"b"}"#,
        #"{"t":900,"event":"disappear","id":"m1"}"#, #"{"t":900,"event":"background"}"#,
        #"{"t":1200,"event":"active"}"#, #"{"t":1200,"event":"appear","screen":"Meditate","id":"m2"}"#,
        #"{"t":1600,"event":"background"}"#,
      ],
      configuration: Self.configuration([
        Rule("daily-calm", when: .screenTime(Self.calm, .seconds(600)), every: .day),
        Rule("calm-day", when: .within(.day, .screenTime(Self.calm, .seconds(600)))),
      ]))
    let earnings = report.earnings.filter { $0.rule == "daily-calm" }
    #expect(earnings.map { Double($0.mono.nanoseconds) / 1e9 } == [600, 1500])
    #expect(earnings.map(\.period) == ["2026-05-04", "2026-05-05"])
    #expect(Self.unlocks(report) == ["calm-day": 600])
  }

  /// The same rules in JSON, in Lua and in Swift say the same and unlock at the same instants.
  @Test func jsonLuaAndSwiftGroupsUnlockAtTheSameInstants() throws {
    let json = try Rule.parseJSON(
      #"""
      [{"id": "time", "when": {"screens": ["Breathe", "Meditate"], "seconds": 90}},
       {"id": "visits", "when": {"screens": ["Breathe", "Meditate"], "visits": 2}},
       {"id": "days", "when": {"activeDays": 1, "minimumPerDay": 75, "screens": ["Breathe", "Meditate"]}}]
      """#)
    let lua = try LuaRulePack(scripts: [
      (
        "pack.lua",
        """
        unlock "time" { when = { screens = { "Breathe", "Meditate" }, seconds = 90 } }
        unlock "visits" { when = { screens = { "Breathe", "Meditate" }, visits = 2 } }
        unlock "days" { when = { activeDays = 1, minimumPerDay = 75, screens = { "Breathe", "Meditate" } } }
        """
      )
    ]).rules
    let swift = [
      Rule("time", when: .screenTime(Self.calm, .seconds(90))), Rule("visits", when: .visits(Self.calm, 2)),
      Rule("days", when: .activeDays(1, minimumPerDay: .seconds(75), screen: Self.calm)),
    ]
    #expect(swift.map(\.description) == json.map(\.description))
    #expect(lua.map(\.description) == json.map(\.description))
    #expect(json[0].description == "time: unlocks after 1 min 30 s in Breathe or Meditate")
    #expect(json[2].description == "days: unlocks after 1 day with at least 1 min 15 s in Breathe or Meditate")
    // 75 s of the union at 85 s (from 10 s on).
    let expected: [String: Double] = ["time": 100, "visits": 40, "days": 85]
    for rules in [json, lua, swift] {
      #expect(Self.unlocks(try replay(Self.twoScenes, configuration: Self.configuration(rules))) == expected)
    }
  }

  /// Before a rule named it, a group was not measured: it starts, each day, from the largest
  /// of its screens' time that day (Breathe 60 s, Meditate 40 s, one after the other: 60 s,
  /// not their union of 100 s). From then on it is measured: 20 s more of Meditate makes 80 s.
  /// What was measured is stored: relaunched, the group keeps its 80 s and 15 s more of
  /// Breathe make 95 s (restarting from the largest screen, 75 s, would not).
  @Test func aGroupStartsFromItsLargestScreenAndKeepsWhatWasMeasured() throws {
    let rig = Rig()
    var engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "Breathe", id: ScreenInstance("b1")))
    rig.advance(60)
    engine.record(.disappear(id: ScreenInstance("b1")))
    engine.record(.appear(screen: "Meditate", id: ScreenInstance("m1")))
    rig.advance(40)
    engine.record(.disappear(id: ScreenInstance("m1")))
    engine.record(.background)
    engine.terminate()

    rig.configuration.rules = [
      Rule("calm-80", when: .screenTime(Self.calm, .seconds(80))),
      Rule("calm-95", when: .screenTime(Self.calm, .seconds(95))),
    ]
    engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "Meditate", id: ScreenInstance("m2")))
    rig.advance(19)
    #expect(engine.report().unlocks["calm-80"] == nil)
    rig.advance(1)
    #expect(engine.report().unlocks["calm-80"] != nil)
    engine.record(.disappear(id: ScreenInstance("m2")))
    engine.record(.background)
    engine.terminate()

    engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "Breathe", id: ScreenInstance("b2")))
    rig.advance(14)
    #expect(engine.report().unlocks["calm-95"] == nil)
    rig.advance(1)
    #expect(engine.report().unlocks["calm-95"] != nil)
    engine.terminate()
  }

  /// Progress and words name the group: 3 min of Breathe, then 2 min of Meditate, make 5 of
  /// the daily 10 min (a half).
  @Test func progressAndWordsNameTheGroup() throws {
    let rule = Rule("daily-calm", when: .screenTime(Self.calm, .minutes(10)), every: .day)
    #expect(rule.description == "daily-calm: every day: 10 min in Breathe or Meditate")
    var configuration = Tracker.Configuration()
    configuration.rules = [rule]
    let sim = TrackerSimulation(configuration: configuration)
    sim.use("Breathe", for: .minutes(3))
    sim.use("Meditate", for: .minutes(2))
    let progress = try #require(sim.tracker.progress(of: "daily-calm"))
    #expect(abs(progress.fraction - 0.5) < 1e-9)
    #expect(progress.summary.contains("in Breathe or Meditate today"), "\(progress.summary)")
    #expect(!progress.isUnlocked)
  }

  /// A group in Swift is checked like one in JSON: no names, one, a repeat, an empty name.
  @Test func invalidGroupsAreRefusedWithTheRule() {
    let cases: [(Condition, String)] = [
      (.screenTime(Condition.group([]), .seconds(60)), "'screens' is empty"),
      (.visits(Condition.group(["Breathe"]), 2), "'screens' lists one screen; write screen = \"Breathe\""),
      (.streak(3, screen: Condition.group(["Breathe", "Breathe"])), "'screens' lists \"Breathe\" twice"),
      (.activeDays(2, screen: Condition.group(["Breathe", ""])), "'screens' holds an empty name"),
    ]
    for (condition, message) in cases {
      var configuration = Tracker.Configuration()
      configuration.rules = [Rule("calm", when: .all([.sessions(1), condition]))]
      #expect {
        try configuration.validate()
      } throws: {
        "\($0)".contains("calm") && "\($0)".contains(message)
      }
    }
  }
}
