import Dwell
import DwellLua
import DwellTesting
import Testing

@Suite struct LuaRulesTests {
  @Test func declarativeLuaRulesMatchTheirJSONTwins() throws {
    let lua = try LuaRulePack(
      scripts: [
        (
          "pack.lua",
          """
          unlock "a" { when = { screen = "Lessons", seconds = minutes(10) }, title = "Bonus" }
          unlock "b" { when = { all = { { sessions = 2 }, { streak = 3, minimumPerDay = 60 } } } }
          """
        )
      ])
    let json = try Rule.parseJSON(
      #"[{"id":"a","when":{"screen":"Lessons","seconds":600}},{"id":"b","when":{"all":[{"sessions":2},{"streak":3,"minimumPerDay":60}]}}]"#
    )
    #expect(lua.rules.map(\.description) == json.map(\.description))
    #expect(lua.rules[0].title == "Bonus")
  }

  @Test(arguments: [
    ("unlock \"x\" { when = { sessions = 1 }", "rules.lua:1"),
    ("unlock \"x\" { when = { sessions = 1 } }\nunlock \"x\" { when = { sessions = 2 } }", "'x'"),
    ("unlock \"y\" { when = { screen = \"A\", hours = 1 } }", "'y'"),
    ("unlock \"z\" { when = { sessions = 1 }, check = function() return true end }", "'z'"),
    ("unlock \"n\" { }", "'n'"),
    ("unlock \"f\" { when = { visits = 2.5, screen = \"S\" } }", "'f'"),
    ("unlock \"k\" { when = { sessions = 1 }, colour = \"red\" }", "'k'"),
    ("unlock \"c\" { check = 42 }", "'c'"),
    ("unlock(42)", "rules.lua:1"),
    ("\n\nerror('boom')", "rules.lua:3"),
    ("while true do end", "instruction budget"),
    // Found by the fuzzer: a level's points too large for an integer trapped.
    ("levels {\n  { \"Beginner\", 0 },\n  { \"Star\", 111111111111111111111111117 },\n}", "rules.lua:1"),
    // Also found by the fuzzer: 1e12 seconds passed the old bound and overflowed nanoseconds.
    ("unlock \"big\" { when = { appSeconds = hours(100000000) } }", "'big'"),
  ])
  func scriptsThatDoNotLoadAreRejectedWithFileAndLine(text: String, mentions: String) {
    #expect {
      try LuaRulePack(scripts: [("rules.lua", text)])
    } throws: { error in
      "\(error)".contains(mentions)
    }
  }

  @Test(arguments: [
    "io", "os", "debug", "package", "require", "load", "loadfile", "dofile", "collectgarbage", "rawset",
  ])
  func theSandboxHasNoDangerousGlobals(name: String) throws {
    let pack = try LuaRulePack(scripts: [("s.lua", "print(type(\(name)))")])
    #expect(pack.printed == ["s.lua:1: nil"])
  }

  @Test func stringDumpAndBytecodeAreUnavailable() throws {
    let pack = try LuaRulePack(scripts: [("s.lua", "print(type(string.dump), type(('').dump))")])
    #expect(pack.printed == ["s.lua:1: nil\tnil"])
  }

  @Test func memoryBombsAndRunawayRecursionAreStopped() {
    let bombs = [
      "local s = string.rep('x', 1 << 30)",
      "local t = {} for i = 1, 1e9 do t[i] = i end",
      "local function f() return f() + 1 end f()",
      "local s = 'x' while true do s = s .. s end",
    ]
    for bomb in bombs {
      #expect(throws: RuleError.self) {
        try LuaRulePack(scripts: [("bomb.lua", bomb)], limits: ScriptLimits(memory: 4 << 20))
      }
    }
  }

  @Test func aFailingCheckIsDisabledReportedAndOthersGoOn() throws {
    let pack = try LuaRulePack(
      scripts: [
        (
          "checks.lua",
          """
          unlock "loops" { check = function(u) while true do end end }
          unlock "errors" { check = function(u) error({}) end }
          unlock "writes" { check = function(u) u.app.seconds = 1e9 end }
          unlock "bad-arg" { check = function(u) return u.screen(nil).visits > 0 end }
          unlock "fine" { check = function(u) return u.app.seconds >= 3 end }
          """
        )
      ])
    let rig = Rig(configuration: .init(rules: pack.rules))
    let engine = try rig.launch()
    engine.record(.active)
    rig.advance(10)
    let report = engine.report()
    #expect(report.unlocks.keys.sorted() == ["fine"])
    #expect(report.unlocks["fine"]?.mono.seconds == 3)
    let failed = Set(pack.diagnostics.compactMap(\.rule))
    #expect(failed == ["loops", "errors", "writes", "bad-arg"])
    #expect(pack.diagnostics.first { $0.rule == "writes" }?.message.contains("checks.lua:3:") == true)
    #expect(pack.diagnostics.first { $0.rule == "loops" }?.message.contains("instruction budget") == true)
  }

  /// A check returns true (unlock) or false; nil or nothing is "not yet". Anything else (a
  /// table, a string, a number, a function: all true to Lua) is a mistake: it does not
  /// unlock, and is reported once with the file and line of the check and what it returned.
  @Test func aCheckReturningSomethingElseThanABooleanDoesNotUnlock() throws {
    let pack = try LuaRulePack(
      scripts: [
        (
          "checks.lua",
          """
          unlock "table" { check = function(u) return u.screen("Quiz") end }
          unlock "string" { check = function(u) return "yes" end }
          unlock "number" {
            check = function(u)
              return u.app.seconds
            end,
          }
          unlock "function" { check = function(u) return print end }
          unlock "later" { check = function(u) if u.app.seconds >= 2 then return true end end }
          unlock "nil-then-true" { check = function(u) if u.app.seconds >= 3 then return true end return nil end }
          unlock "false" { check = function(u) return false end }
          achievement "tiered" { tiers = { { "one", check = function(u) return 1 end } } }
          """
        )
      ])
    let rig = Rig(configuration: .init(rules: pack.rules))
    let engine = try rig.launch()
    engine.record(.active)
    rig.advance(5)
    #expect(engine.report().unlocks.keys.sorted() == ["later", "nil-then-true"])
    let messages = pack.diagnostics.map(\.description).sorted()
    #expect(
      messages
        == [
          "checks.lua:1: check returned a table; a check returns true or false (rule 'table')",
          "checks.lua:2: check returned a string; a check returns true or false (rule 'string')",
          "checks.lua:4: check returned a number; a check returns true or false (rule 'number')",
          "checks.lua:8: check returned a function; a check returns true or false (rule 'function')",
          "checks.lua:12: check returned a number; a check returns true or false (rule 'tiered/one')",
        ].sorted(), "\(messages)")
  }

  @Test func checksSeeTheUsageFigures() throws {
    let pack = try LuaRulePack(
      scripts: [
        (
          "u.lua",
          """
          unlock "quiz" { check = function(u)
            return u.screen("Quiz").visits >= 2 and u.screen("Quiz").seconds >= 5
              and u.app.sessions == 1 and u.app.active_days == 1 and u.date == "2026-05-04"
              and u.hour == 10 and u.app.today_seconds >= 5 and u.screen("Nowhere").visits == 0
          end }
          """
        )
      ])
    let rig = Rig(configuration: .init(rules: pack.rules))  // 08:00Z = 10:00 in Berlin
    let engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "Quiz", id: ScreenInstance("q1")))
    engine.record(.disappear(id: ScreenInstance("q1")))
    engine.record(.appear(screen: "Quiz", id: ScreenInstance("q2")))
    rig.advance(20)
    #expect(engine.report().unlocks["quiz"]?.mono.seconds == 5)
    #expect(pack.diagnostics.isEmpty)
  }
}
