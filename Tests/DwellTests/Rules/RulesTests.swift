import DwellTesting
import Testing

@testable import Dwell

@Suite struct RulesTests {
  @Test func jsonRulesParseIntoConditions() throws {
    let rules = try Rule.parseJSON(
      #"""
      [{"id": "a", "when": {"screen": "Lessons", "seconds": 600}},
       {"id": "b", "when": {"all": [{"sessions": 2}, {"streak": 3, "screen": "L", "minimumPerDay": 60}]}}]
      """#)
    #expect(rules.map(\.id) == ["a", "b"])
    #expect(rules[0].condition.description == "10 min in Lessons")
    #expect(rules[1].condition.description == "2 sessions and 3 days in a row with at least 1 min in L")
  }

  @Test(arguments: [
    (#"{"id":"x"}"#, "array"),
    (#"[{"id":"neg","when":{"appSeconds":-5}}]"#, "neg"),
    (#"[{"id":"frac","when":{"screen":"Shop","visits":2.5}}]"#, "frac"),
    (#"[{"id":"odd","when":{"screen":"Shop","minutes":5}}]"#, "odd"),
    (#"[{"id":"e","when":{"any":[]}}]"#, "e"),
    (#"[{"id":"t","when":{"sessions":1}},{"id":"t","when":{"sessions":2}}]"#, "t"),
    (#"[{"when":{"sessions":1}}]"#, "#1"),
    (#"[{"id":"s","when":{"sessions":"2"}}]"#, "s"),
    (#"[{"id":"huge","when":{"appSeconds":5e11}}]"#, "huge"),  // overflowed nanoseconds once
  ])
  func invalidRulesNameTheRule(text: String, names: String) {
    #expect {
      try Rule.parseJSON(text)
    } throws: { error in
      "\(error)".contains(names)
    }
  }

  @Test func timeThresholdsUnlockBetweenEvents() throws {
    let rig = Rig(configuration: .init(rules: [Rule("ten", when: .screenTime("Lessons", .seconds(600)))]))
    let engine = try rig.launch()
    engine.record(.active)
    rig.advance(100)
    engine.record(.appear(screen: "Lessons", id: ScreenInstance("l")))
    rig.advance(3600)
    #expect(engine.report().unlocks["ten"]?.mono.seconds == 700)
  }

  @Test func allUnlocksAtTheLatestPartAnyAtTheEarliest() throws {
    let rig = Rig(
      configuration: .init(rules: [
        Rule("all", when: .all([.appTime(.seconds(50)), .visits("Shop", 1)])),
        Rule("any", when: .any([.appTime(.seconds(50)), .visits("Shop", 1)])),
      ]))
    let engine = try rig.launch()
    engine.record(.active)
    rig.advance(80)
    engine.record(.appear(screen: "Shop", id: ScreenInstance("s")))
    let unlocks = engine.report().unlocks
    #expect(unlocks["any"]?.mono.seconds == 50)
    #expect(unlocks["all"]?.mono.seconds == 80)
  }

  /// With other day-based rules beside it: a few qualifiers are found by a scan, many by
  /// hashing their keys; either way the streak's own days are counted.
  @Test(arguments: [0, 3, 12])
  func streaksWithADailyMinimum(others: Int) throws {
    let extra = (0..<others).map { Rule("x\($0)", when: .streak(99, minimumPerDay: .seconds($0 * 7 + 1), screen: "L")) }
    let rig = Rig(
      wall: "2026-01-05T06:00:00Z", zone: "UTC",
      configuration: .init(rules: extra + [Rule("s", when: .streak(3, minimumPerDay: .seconds(300), screen: "L"))]))
    let engine = try rig.launch()
    for _ in 0..<3 {
      engine.record(.appear(screen: "L", id: ScreenInstance("l")))
      engine.record(.active)
      rig.advance(400)
      engine.record(.disappear(id: ScreenInstance("l")))
      engine.record(.background)
      rig.advance(86_400 - 400)
    }
    // Third day's 300 s are reached 300 s after 06:00 on day three.
    let expected = 2 * 86_400.0 + 300
    #expect(engine.report().unlocks["s"]?.mono.seconds == expected)
  }

  @Test func activeDaysUnlockWhenAccrualStartsOnTheNewDay() throws {
    let rig = Rig(
      wall: "2026-01-05T23:00:00Z", zone: "UTC", configuration: .init(rules: [Rule("two", when: .activeDays(2))]))
    let engine = try rig.launch()
    engine.record(.active)
    rig.advance(7200)
    // The new day counts once it has more than zero seconds: a nanosecond after midnight.
    #expect(engine.report().unlocks["two"]?.mono.nanoseconds == 3_600_000_000_001)
  }

  /// An `active` undone at the same instant accrues nothing: it makes no active day, so
  /// neither a count of days nor a streak unlocks on it; the next real day does.
  @Test func anActivePeriodOfNoTimeMakesNoActiveDay() throws {
    let rig = Rig(
      wall: "2026-01-05T09:00:00Z", zone: "UTC",
      configuration: .init(rules: [
        Rule("three-days", when: .activeDays(3)), Rule("three-in-a-row", when: .streak(3)),
        Rule("lessons-three-days", when: .activeDays(3, screen: "Lessons")),
      ]))
    let engine = try rig.launch()
    engine.record(.appear(screen: "Lessons", id: ScreenInstance("l")))
    for seconds in [600.0, 0, 0, 600] {
      engine.record(.active)
      rig.advance(seconds)
      engine.record(.background)
      rig.advance(86_400 - seconds)
    }
    let report = engine.report()
    #expect(report.unlocks["three-in-a-row"] == nil)
    #expect(report.unlocks["three-days"] == nil)
    #expect(report.unlocks["lessons-three-days"] == nil)
    engine.record(.active)
    rig.advance(60)
    let fifthDay = Int64(4 * 86_400) * 1_000_000_000
    #expect(engine.report().unlocks["three-days"]?.mono.nanoseconds == fifthDay + 1)
    #expect(engine.report().unlocks["lessons-three-days"]?.mono.nanoseconds == fifthDay + 1)
    #expect(engine.report().unlocks["three-in-a-row"] == nil)
  }

  @Test func scriptedChecksRunAtEventsAndTicks() throws {
    struct HalfMinute: RuleCheck {
      func holds(_ usage: UsageFigures) -> Bool { usage.appSeconds >= 30.5 }
    }
    let rig = Rig(configuration: .init(rules: [Rule("c", when: .check(.init(HalfMinute())))]))
    let engine = try rig.launch()
    rig.advance(0.25)
    engine.record(.active)
    rig.advance(100)
    // App time 30.5 at t=30.75, but checks run at whole ticks of app time: 31 s at t=31.25.
    #expect(engine.report().unlocks["c"]?.mono.seconds == 31.25)
  }

  @Test func unlocksAreStickyAcrossLaunches() throws {
    let rules = [Rule("five", when: .sessions(1))]
    let rig = Rig(configuration: .init(rules: rules))
    var engine = try rig.launch()
    engine.record(.active)
    engine.terminate()
    let first = engine.report().unlocks["five"]
    rig.advance(4000)
    engine = try rig.launch()
    #expect(engine.report().unlocks["five"] == first)
  }
}

@Suite struct DayQualifierTests {
  /// Runs are kept by their ends, so streaks cost O(1); checked against walking the days,
  /// at random days and at the day inserted last and the day after (the current streak's
  /// shortcut), with days inserted again in between.
  @Test(arguments: 1...20)
  func runsMatchAWalkOverTheDays(seed: Int) {
    var rng = SeededGenerator(seed: UInt64(seed))
    var qualifier = DayQualifier(key: .init(screen: nil, minimum: 0))
    var days = Set<Int32>()
    func walk(_ d: Int32, _ step: Int32) -> Int32 {
      var n: Int32 = 0
      while days.contains(d + step * (n + 1)) { n += 1 }
      return n
    }
    func check(_ probe: Int32) {
      let through = days.contains(probe) ? walk(probe, -1) + 1 + walk(probe, 1) : 0
      if days.contains(probe) { #expect(qualifier.run(through: Day(ordinal: probe)) == Int(through)) }
      let end = days.contains(probe) ? probe : probe - 1
      let current = days.contains(end) ? Int(walk(end, -1)) + 1 : 0
      #expect(qualifier.current(endingOn: Day(ordinal: probe)) == current)
      let longest = days.map { d in days.contains(d - 1) ? 0 : Int(walk(d, 1)) + 1 }.max() ?? 0
      #expect(qualifier.longest == longest)
      #expect(qualifier.longest(with: Day(ordinal: probe)) == max(longest, Int(walk(probe, -1) + 1 + walk(probe, 1))))
    }
    for _ in 0..<300 {
      var last = Int32.random(in: 0..<400, using: &rng)
      qualifier.insert(Day(ordinal: last))
      days.insert(last)
      if let again = days.randomElement(using: &rng), Bool.random(using: &rng) {
        qualifier.insert(Day(ordinal: again))
        last = again
      }
      for probe in [Int32.random(in: -2..<402, using: &rng), last, last + 1] { check(probe) }
    }
  }
}
