import Dwell
import DwellHarness
import DwellLua
import Foundation
import Testing

/// What a designer new to Dwell met (#26): each mistake is said at its own line with what
/// to write instead, a long line wraps to the terminal's width instead of being cut, and
/// UTC is "UTC". Each row stands for its class (every reserved word used as a key, every
/// unit-named key in a `when`, every city without its region...).
@Suite struct DesignerMessagesTests {
  static let luaCases: [(pack: String, message: String)] = [
    // A word Lua reserves, used as a key: Lua says only "unexpected symbol".
    (
      "unlock \"a\" {\n  title = \"A\",\n  repeat = \"daily\",\n  when = { sessions = 1 },\n}",
      #"p.lua:3: 'repeat' is a word Lua reserves, so it cannot be a key: the key is 'every'; write every = "daily""#
    ),
    (
      "unlock \"a\" {\n  until = \"2026-06-01\",\n  when = { sessions = 1 },\n}",
      #"p.lua:2: 'until' is a word Lua reserves, so it cannot be a key: the key is 'to'; write to = "2026-06-01""#
    ),
    (
      "unlock \"a\" {\n  when = { sessions = 1 },\n  end = 3,\n}",
      "p.lua:3: 'end' is a word Lua reserves, so it cannot be a key; no Dwell key is named 'end' (the Lua guide lists each table's keys)"
    ),
    (
      "unlock \"a\" {\n  when = { sessions = 1 },\n  function = 3,\n}",
      "p.lua:3: 'function' is a word Lua reserves, so it cannot be a key; no Dwell key is named 'function' (the Lua guide lists each table's keys)"
    ),
    // A ',' left at the end of a line is said at its line, not at the bracket's below.
    (
      "local x = minutes(1,\n)\nunlock \"a\" { when = { sessions = 1 } }",
      "p.lua:1: the ',' at the end of this line leaves a value out before the ')' on line 2; remove the ','"
    ),
    (
      "unlock \"a\" {\n  when = { sessions = 1 },\n},\nunlock \"b\" { when = { sessions = 2 } }",
      "p.lua:3: a ',' after a definition: remove it (definitions follow one another without commas)"
    ),
    // A key named after a unit, said at its own line with the key and helper to write.
    (
      "unlock \"a\" {\n  title = \"A\",\n  when = {\n    screen = \"Home\",\n    hours = 2,\n  },\n}",
      #"p.lua:5: rule 'a': 'hours' is not a key: durations are given in seconds; write seconds = hours(2) (in a JSON rules file, "seconds": 7200)"#
    ),
    (
      "unlock \"a\" {\n  when = { minutes = 30 },\n}",
      #"p.lua:2: rule 'a': 'minutes' is not a key: durations are given in seconds; write appSeconds = minutes(30) (in a JSON rules file, "appSeconds": 1800)"#
    ),
    (
      "unlock \"a\" {\n  when = {\n    streak = 3,\n    hours = 1,\n  },\n}",
      #"p.lua:4: rule 'a': 'hours' is not a key: durations are given in seconds; write minimumPerDay = hours(1) (in a JSON rules file, "minimumPerDay": 3600)"#
    ),
    (
      "unlock \"a\" {\n  when = { days = 3 },\n}",
      #"p.lua:2: rule 'a': 'days' is not a key: durations are given in seconds; write appSeconds = days(3) or, for days of use, activeDays = 3 (in a JSON rules file, "appSeconds": 259200)"#
    ),
    // Any key's mistake is placed at the key, in the tier it names.
    (
      "unlock \"a\" {\n  title = \"A\",\n  wen = { sessions = 1 },\n}",
      "p.lua:3: rule 'a': unknown key 'wen' (did you mean 'when'?); unlock takes check, description, every, from, summary, title, to, when"
    ),
    (
      "achievement \"a\" {\n  tiers = {\n    { \"bronze\", when = { sessions = 1 }, points = 1 },\n"
        + "    { \"gold\", when = { sessions = 2 },\n      points = -1 },\n  },\n}",
      "p.lua:5: rule 'a': tier 'gold': 'points' must be from 0 to 1,000,000, not -1"
    ),
  ]

  @Test(arguments: luaCases)
  func aLuaMistakeIsSaidAtItsLineWithTheFix(pack: String, message: String) {
    do {
      let loaded = try LuaRulePack(scripts: [("p.lua", pack)])
      Issue.record("accepted with \(loaded.rules.count) rules: \(pack)")
    } catch {
      #expect(error.description == message)
    }
  }

  /// The same unit-named key in a JSON rules file.
  @Test func aUnitKeyInJSONSaysTheSeconds() {
    #expect {
      try Rule.parseJSON(#"[{"id": "a", "when": {"screen": "S", "hours": 2}}]"#, file: "r.json")
    } throws: { error in
      (error as? RuleError)?.description
        == #"r.json:1: rule 'a': 'hours' is not a key: durations are given in seconds; write seconds = hours(2) (in a JSON rules file, "seconds": 7200)"#
    }
  }

  /// The simulator's commands: a duration in words, a city for a zone, a screen in the
  /// wrong case, UTC by its name.
  @Test func theSimulatorSaysWhatToType() throws {
    let dir = try SimulatorTests.pack(#"unlock "calm" { when = { screen = "Meditate", seconds = 60 } }"#)
    let sim = try Simulator(
      options: .init(
        rulesPath: dir.directory, start: SimulatorTests.start, timeZone: TimeZone(identifier: "UTC") ?? .current))
    defer { sim.close() }
    let status = try sim.perform("status")
    #expect(status.hasPrefix("Dwell sim · 2026-05-04 Mon 07:00:00 UTC ·"), "\(status)")
    #expect {
      try sim.perform("open meditate")
    } throws: { error in
      "\(error)"
        == "the rules name the screen 'Meditate', not 'meditate' (screen names are case-sensitive); write open Meditate"
    }
    #expect {
      try sim.perform("sheet MEDITATE")
    } throws: { error in "\(error)".hasSuffix("write sheet Meditate") }
    try sim.perform("open Meditate")
    try sim.perform("wait 10 minutes")
    try sim.perform("wait 1 hour 30 min")
    let later = try sim.perform("status")
    #expect(later.contains("08:40:00"), "\(later)")
    #expect(sim.log.map(\.text).contains("★ Unlocked calm"), "\(sim.log.map(\.text))")
    #expect {
      try sim.perform("tz Berlin")
    } throws: { error in "\(error)" == "'Berlin' is not a time zone; write Europe/Berlin" }
    #expect {
      try sim.perform("tz utc")
    } throws: { error in "\(error)" == "'utc' is not a time zone; write UTC" }
    try sim.perform("tz UTC")
    #expect(sim.log.last?.text.hasPrefix("Time zone now UTC") == true, "\(sim.log.map(\.text))")
  }

  /// A scenario's @start and @tz are said at their line, with what to write.
  @Test(arguments: [
    (
      "@start 2026-05-04 25:00\nopen A\n",
      "s.scenario:1: @start takes YYYY-MM-DD HH:MM (hours 00 to 23, minutes 00 to 59), from 1970 to 2200, "
        + "not '2026-05-04 25:00'; write, for example, @start 2026-05-04 09:00"
    ),
    ("# a comment\n@tz Tokyo\n", "s.scenario:2: @tz: 'Tokyo' is not a time zone; write Asia/Tokyo"),
    ("@tz Sao Paulo\n", "s.scenario:1: @tz: 'Sao Paulo' is not a time zone; write America/Sao_Paulo"),
  ])
  func aScenarioDirectiveIsSaidAtItsLine(text: String, message: String) {
    #expect {
      try Scenario(text: text, path: "tests/s.scenario")
    } throws: { error in
      "\(error)" == message
    }
  }

  /// Every line of the live view, the `status` and `rules` answers wraps to the width:
  /// nothing is cut with "…" (the command to replay a recording, a disabled check's error).
  @Test func longLinesWrapToTheWidth() throws {
    let dir = try SimulatorTests.pack(
      #"unlock "typo" { check = function(u) return u.nothing.here > 1 end }"# + "\n"
        + #"unlock "calm" { when = { screen = "Meditate", seconds = 60 } }"#)
    let sim = try SimulatorTests.sim(dir)
    defer { sim.close() }
    let record = TemporaryStore()
    try sim.perform("open Meditate")
    try sim.perform("wait 2m")
    try sim.perform("record \(record.directory)/session.jsonl")
    let width = 50
    sim.answerWidth = width
    let view = sim.render(width: width, height: 40, color: false)
    let lines = view.split(separator: "\n").map(String.init)
    for line in lines { #expect(TerminalText.width(line) <= width, "\(line.debugDescription)") }
    #expect(!view.contains("…"), "\(view)")
    // Wrapped, not cut: the text is all there once the breaks (and a long path's pieces) are joined.
    let joined = view.filter { !$0.isWhitespace }
    #expect(joined.contains("dwellreplay\(record.directory)/session.jsonl--rules\(dir.directory)"), "\(view)")
    #expect(joined.contains("disabled:pack.lua:1:attempttoindexanilvalue(field'nothing')"), "\(view)")
    let answer = try sim.perform("rules")
    #expect(
      !answer.contains("…") && answer.split(separator: "\n").allSatisfy { TerminalText.width(String($0)) <= width })
  }
}
