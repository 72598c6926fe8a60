import Dwell
import DwellLua
import Foundation
import Testing

/// Every mistake a designer makes in a pack gets one exact message: the file, the line,
/// the rule or tier, and the fix. Each row is a bad pack and the message it must produce,
/// as the host app receives it (`RuleError.description`), as `dwell rules check` and the
/// simulator print it.
@Suite struct RuleErrorTests {
  static let cases: [(pack: String, message: String)] = [
    // A value of the wrong kind is said, not ignored (a title of {} was dropped, a hidden of
    // "false" or 0 was true to Lua).
    (
      #"unlock "t" { title = {}, when = { appSeconds = 1 } }"#,
      #"p.lua:1: rule 't': 'title' must be a string, as in title = "Bonus level", not a table"#
    ),
    (
      #"unlock "t" { title = "T", description = 42, when = { appSeconds = 1 } }"#,
      #"p.lua:1: rule 't': 'description' must be a string, as in description = "Bonus level", not a number"#
    ),
    (
      #"achievement "a" { hidden = "false", when = { appSeconds = 1 } }"#,
      #"p.lua:1: rule 'a': 'hidden' must be true or false, as in hidden = true, not a string ("false")"#
    ),
    (
      #"achievement "a" { hidden = 0, when = { appSeconds = 1 } }"#,
      "p.lua:1: rule 'a': 'hidden' must be true or false, as in hidden = true, not the number 0"
    ),
    (
      #"achievement "a" { tiers = { { "one", title = true, when = { sessions = 1 } } } }"#,
      #"p.lua:1: rule 'a': tier 'one': 'title' must be a string, as in title = "Bonus level", not a boolean"#
    ),
    (
      "unlock \"t\" { title = string.rep(\"x\", 3000000), when = { appSeconds = 1 } }",
      "p.lua:1: rule 't': its title is longer than 500 characters (3000000 bytes) (sandbox)"
    ),
    (
      #"achievement "a" { tiers = { { "bronze", when = { sessions = 1 } }, { "bronze", when = { sessions = 2 } } } }"#,
      "p.lua:1: rule 'a': tier 'bronze' is repeated; give each tier its own name"
    ),
    (
      "achievement \"a\" {\n  tiers = {\n    { \"bronze\", when = { sessions = 1 } },\n    { when = { sessions = 2 } },\n  },\n}",
      #"p.lua:1: rule 'a': tier 2 needs a name first, as in { "bronze", when = { ... }, points = 10 }"#
    ),
    (
      "achievement \"\(String(repeating: "a", count: 100))\" { tiers = { { \"\(String(repeating: "b", count: 40))\", when = { sessions = 1 } } } }",
      "p.lua:1: rule '\(String(repeating: "a", count: 100))': tier '\(String(repeating: "b", count: 40))': its id '\(String(repeating: "a", count: 100))/\(String(repeating: "b", count: 40))' is 141 bytes, and an id (achievement, '/', tier) is at most 128; shorten the achievement's id or the tier's name"
    ),
    (
      #"achievement "a" { tiers = { { "bronze", whn = { sessions = 1 } } } }"#,
      "p.lua:1: rule 'a': tier 'bronze': unknown key 'whn' (did you mean 'when'?); a tier takes check, points, title, when"
    ),
    (
      "unlock \"a/bronze\" { when = { sessions = 1 } }\nachievement \"a\" { tiers = { { \"bronze\", when = { sessions = 1 } } } }",
      "p.lua:2: rule 'a': tier 'bronze': its id 'a/bronze' is already taken by an earlier unlock (p.lua:1); rename the tier or that rule"
    ),
    (
      "achievement \"a\" { tiers = { { \"bronze\", when = { sessions = 1 } } } }\nunlock \"a/bronze\" { when = { sessions = 1 } }",
      "p.lua:2: rule 'a/bronze': the id is already taken by tier 'bronze' of achievement 'a' (p.lua:1); give each rule its own id"
    ),
    (
      "unlock \"a\" { when = { sessions = 1 } }\n\nunlock \"a\" { when = { sessions = 2 } }",
      "p.lua:3: rule 'a': the id is already taken by an earlier unlock (p.lua:1); give each rule its own id"
    ),
    (
      #"unlock("a", { when = { sessions = 1 } })"#,
      #"p.lua:1: rule 'a': the table goes right after the id, as in unlock "a" { when = { ... } }, not unlock("a", { ... })"#
    ),
    (
      "\nunlock \"a\"",
      #"p.lua:2: rule 'a': unlock "a" has no table; write unlock "a" { when = { ... } }"#
    ),
    (
      #"unlock "a" { when = { all = {} } }"#,
      #"p.lua:1: rule 'a': 'all' is empty; list at least one condition, as in all = { { sessions = 2 }, { screen = "Lessons", seconds = 600 } }"#
    ),
    (
      #"unlock "a" { when = { any = { sessions = 2 } } }"#,
      #"p.lua:1: rule 'a': 'any' must be a list of conditions, as in any = { { sessions = 2 }, { screen = "Lessons", seconds = 600 } }"#
    ),
    (
      #"unlock "a" { when = { screen = "Lessons", secnds = 600 } }"#,
      "p.lua:1: rule 'a': unknown key 'secnds' (did you mean 'seconds'?); a condition with screen takes screen, seconds, visits"
    ),
    (
      #"unlock "a" { when = { sesions = 3 } }"#,
      "p.lua:1: rule 'a': unknown key 'sesions' (did you mean 'sessions'?); a condition is one of: screen + seconds, "
        + "screen + visits, appSeconds, sessions, activeDays, streak (with minimumPerDay and screen, or action, if "
        + "wanted), action + count, unlocked, points, level, all, any; a figure may add within"
    ),
    (
      #"unlock "a" { wen = { sessions = 1 } }"#,
      "p.lua:1: rule 'a': unknown key 'wen' (did you mean 'when'?); unlock takes check, description, every, from, summary, title, to, when"
    ),
    (
      #"unlock "a" { title = "A" }"#,
      "p.lua:1: rule 'a': it needs 'when' (a condition, as in when = { sessions = 3 }) or 'check' (a function of the usage)"
    ),
    (
      #"unlock "a" { when = { screen = "S", visits = 2.5 } }"#,
      "p.lua:1: rule 'a': 'visits' must be a whole number, not 2.5; round it to 3"
    ),
    (
      #"achievement "a" { tiers = {} }"#,
      #"p.lua:1: rule 'a': 'tiers' must list at least one tier, but it is empty; write tiers = { { "bronze", when = { ... }, points = 10 }, { "silver", ... } }"#
    ),
    (
      #"achievement "a" { points = 2.5, when = { sessions = 1 } }"#,
      "p.lua:1: rule 'a': 'points' must be a whole number, not 2.5, as in points = 10"
    ),
    (
      #"levels { { "Beginner", 0 }, { "Learner", 0 } }"#,
      "p.lua:1: levels 'Beginner' and 'Learner' both need 0 points; give each level its own"
    ),
  ]

  /// Syntax mistakes said as Lua's parser means them, at the line of the mistake, with the
  /// fix only where it is certain.
  static let syntaxCases: [(pack: String, message: String)] = [
    (
      "unlock \"a\" {\n  title = \"A\"\n  when = { sessions = 3 },\n}",
      "p.lua:3: expected '}' or ',' near 'when': add a ',' before 'when' (the table opened at line 1)"
    ),
    (
      #"unlock "a" { title = "A" when = { sessions = 3 } }"#,
      "p.lua:1: expected '}' or ',' near 'when': add a ',' before 'when'"
    ),
    (
      "achievement \"a\" {\n  tiers = {\n    { \"bronze\" when = { sessions = 1 }, points = 10 },\n  },\n}",
      "p.lua:3: expected '}' or ',' near 'when': add a ',' before 'when'"
    ),
    (
      "levels {\n  { \"Beginner\", 0 }\n  { \"Learner\", 30 },\n}",
      "p.lua:3: expected '}' or ',' near '{': add a ',' before '{' (the table opened at line 1)"
    ),
    (
      #"levels { { "Beginner", 0 }, { "Learner" = 30 } }"#,
      "p.lua:1: expected '}' or ',' near '='"
    ),
    (
      "unlock \"a\" {\n  title = \"A\",\n  when = { sessions = 3 },\n",
      "p.lua:1: the '{' opened here is never closed; add '}'"
    ),
    ("\nunlock \"a\" {\n  when = { sessions = 3 }\n", "p.lua:2: the '{' opened here is never closed; add '}'"),
    (
      "unlock \"a\" {\n  title = \"Level {1\", -- a } in a comment\n  description = [[ ( ]],\n  when = { sessions = 3 },\n",
      "p.lua:1: the '{' opened here is never closed; add '}'"
    ),
    (
      "local p = plugin \"x\"\np.on(\"tick\", function(u) p.award(1 \"late\") end)",
      #"p.lua:2: expected ')' or ',' near '"late"': add a ',' before '"late"'"#
    ),
    (
      "local p = plugin \"x\"\np.on(\"tick\", function(u)\n  p.award(1)\nend\n",
      "p.lua:2: the '(' opened here is never closed; add ')'"
    ),
    (
      "local p = plugin \"x\"\np.on(\"tick\", function(u)\n  return p.award(1)\n)",
      "p.lua:4: expected 'end' near ')' (the 'function' opened at line 2)"
    ),
    (
      "local p = plugin \"x\"\np.on(\"tick\", function(u)\n  p.award(1)\n",
      "p.lua:2: the 'function' opened here is never closed; add 'end'"
    ),
    (
      "unlock \"a\" { check = function(u)\n  if u.hour = 23 then return true end\nend }",
      "p.lua:2: expected 'then' near '=': to compare two values, write '=='"
    ),
    (
      #"unlock "a" { title = "A, when = { sessions = 3 } }"#,
      #"p.lua:1: a string is not closed: end it with the quote it starts with, on the same line"#
    ),
    // "unexpected symbol near ')'": a value left out before a closing bracket or a ',', or a
    // bracket closing another kind.
    (
      #"unlock "a" { when = { appSeconds = minutes(10,) } }"#,
      "p.lua:1: unexpected ')': the ',' before it leaves a value out; remove the ',' (write f(a), not f(a,))"
    ),
    (
      "unlock \"a\" {\n  when = { appSeconds = 1, )\n}",
      "p.lua:2: unexpected ')': it cannot close the '{' opened at line 2; write '}'"
    ),
    (
      #"unlock "a" { title = "(", when = { sessions = 1 }, description = ) }"#,
      "p.lua:1: unexpected ')': a value is missing after '='"
    ),
    (
      #"unlock "a" { title = , when = { sessions = 1 } }"#,
      "p.lua:1: unexpected ',': a value is missing after '='"
    ),
    (
      #"levels { { "A", 0 },, { "B", 1 } }"#,
      "p.lua:1: unexpected ',': a value is missing between two ','; remove one"
    ),
    (
      "local p = plugin \"x\"\np.on(\"tick\", function(u) p.award(1, \"a)\", ) end)",
      "p.lua:2: unexpected ')': the ',' before it leaves a value out; remove the ',' (write f(a), not f(a,))"
    ),
    (
      #"unlock "a" { when = { sessions = 1 } } local x = ( )"#,
      "p.lua:1: unexpected ')': a value is missing before it"
    ),
  ]

  /// A unit helper given something else than a number, or a misspelt helper: said at the
  /// designer's line, as what it means, with the helper they probably meant.
  static let helperCases: [(pack: String, message: String)] = [
    (
      #"unlock "a" { when = { appSeconds = minutes("twenty") } }"#,
      #"p.lua:1: minutes() takes a number of minutes, got a string ("twenty"), as in minutes(20)"#
    ),
    (
      "\nunlock \"a\" { when = { appSeconds = hours(nil) } }",
      "p.lua:2: hours() takes a number of hours, got nil, as in hours(20)"
    ),
    (
      #"unlock "a" { when = { appSeconds = days({ 2 }) } }"#,
      "p.lua:1: days() takes a number of days, got a table, as in days(20)"
    ),
    (
      #"unlock "a" { when = { appSeconds = minute(20) } }"#,
      "p.lua:1: minute() is not a Dwell helper or a Lua function rule packs have (did you mean minutes()?)"
    ),
    (
      #"achievment "a" { when = { sessions = 2 } }"#,
      "p.lua:1: achievment() is not a Dwell helper or a Lua function rule packs have (did you mean achievement()?)"
    ),
    (
      #"unlock "a" { when = { appSeconds = frobnicate(2) } }"#,
      "p.lua:1: frobnicate() is not a Dwell helper or a Lua function rule packs have; "
        + "the helpers are minutes, hours, days, unlock, achievement, levels, plugin"
    ),
    (#"unlock "a" { when = { appSeconds = mth.floor(2.5) } }"#, "p.lua:1: mth is not defined (did you mean math?)"),
    ("local now = os.time()", "p.lua:1: os is not available in rule packs (sandbox)"),
  ]

  /// The same words when a check calls the helper wrongly as the app runs: the check is
  /// disabled and the problem names the file and line.
  @Test func aCheckThatMisusesAHelperSaysSoWhenItRuns() throws {
    let pack = try LuaRulePack(scripts: [
      (
        "p.lua",
        """
        unlock "late" { check = function(u)
          return u.app.seconds >= minute(20)
        end }
        unlock "typed" { check = function(u) return u.app.seconds >= minutes(tostring(u.hour)) end }
        """
      )
    ])
    let rig = Rig(configuration: .init(rules: pack.rules))
    let engine = try rig.launch()
    engine.record(.active)
    rig.advance(3)
    let messages = Dictionary(pack.diagnostics.compactMap { d in d.rule.map { ($0, d.message) } }) { a, _ in a }
    #expect(
      messages["late"]?.contains(
        "p.lua:2: minute() is not a Dwell helper or a Lua function rule packs have (did you mean minutes()?)") == true,
      "\(messages)")
    #expect(messages["typed"]?.contains("p.lua:4: minutes() takes a number of minutes, got a string (\"") == true)
  }

  /// The names the messages offer are the sandbox's own: each is there, each withheld one is not.
  @Test func theNamesOfferedAreTheSandboxs() throws {
    let names = ScriptNames.helpers + ScriptNames.lua
    let present = names.map { "assert(\($0) ~= nil, '\($0)')" }.joined(separator: "\n")
    let absent = ScriptNames.withheld.map { "assert(\($0) == nil, '\($0)')" }.joined(separator: "\n")
    _ = try LuaRulePack(scripts: [("p.lua", present + "\n" + absent)])
  }

  /// What Lua's parser raises without a place (code nested deeper than it reads, memory
  /// running out while it reads) is placed at the line it was reading, in words, and every
  /// message names its file once, whatever the file is called (a space, a colon).
  @Test func everyLoadErrorNamesItsFileOnceAndItsLine() throws {
    func message(_ name: String, _ text: String, limits: ScriptLimits = ScriptLimits()) -> String {
      do {
        _ = try LuaRulePack(scripts: [("rules/" + name, text)], limits: limits)
        return "loaded"
      } catch { return error.description }
    }
    let deep = "the code here is nested too deeply for Lua to read"
    for nested in [
      "local x = " + String(repeating: "(", count: 100_000),
      "\nlocal t = " + String(repeating: "{", count: 100_000),
      "local s = " + Array(repeating: "'a'", count: 100_000).joined(separator: " .. "),
    ] {
      let said = message("p.lua", nested)
      #expect(said.hasPrefix("rules/p.lua:\(nested.hasPrefix("\n") ? 2 : 1): \(deep)"), "\(said)")
    }
    // One bracket a line: the line where the nesting became too deep.
    let lines = message("p.lua", "local t =\n" + String(repeating: "{\n", count: 1000))
    let line = Int(lines.split(separator: ":")[1]) ?? 0
    #expect((150...260).contains(line) && lines.contains(deep), "\(lines)")
    let constants = "local t = {" + (0..<100_000).map { "\($0).5" }.joined(separator: ",") + "}"
    #expect(
      message("p.lua", constants, limits: ScriptLimits(memory: 256 << 10))
        == "rules/p.lua:1: memory limit exceeded (256 KiB)")
    #expect(
      message("my pack.lua", "local t = nil\nlocal x = t.a")
        == "rules/my pack.lua:2: attempt to index a nil value (local 't')")
    #expect(
      message("a:b.lua", "unlock \"a\" {\n  when = { sessions = 1 }\n  title = \"A\" }")
        == "rules/a:b.lua:3: expected '}' or ',' near 'title': add a ',' before 'title' (the table opened at line 1)")
    // A NUL does not end the file: what follows it is read (it was silently left out).
    #expect(
      message("p.lua", "unlock \"a\" { when = { sessions = 1 } }\n\u{0}unlock \"b\" { when = { sessions = 2 } }")
        == "rules/p.lua:2: unexpected symbol")
  }

  @Test(arguments: cases + syntaxCases + helperCases)
  func aBadPackGetsItsExactMessage(pack: String, message: String) {
    do {
      let loaded = try LuaRulePack(scripts: [("p.lua", pack)])
      Issue.record("accepted with \(loaded.rules.count) rules: \(pack)")
    } catch {
      #expect(error.description == message)
    }
  }

  /// The same message from `dwell rules check` and from `dwell sim` at start.
  @Test func theToolsPrintTheSameMessage() throws {
    let dir = TemporaryStore()
    let (pack, message) = Self.cases[2]
    let path = try CommandLineTests.write(pack, to: dir, name: "p.lua")
    let expected = message.replacingOccurrences(of: "p.lua:", with: path + ":")
    let check = try CommandLineTests.dwell(["rules", "check", path])
    #expect(check.status == 1)
    #expect(check.stderr == "dwell: invalid rules: \(expected)\n")
    let sim = try CommandLineTests.dwell(["sim", "--rules", path, "--script", "-"])
    #expect(sim.status == 1)
    #expect(sim.stderr == "dwell: the rules do not load: \(expected)\n")
  }
}
