// dwell rules check: rules explained in words, slips noted, sandbox violations refused.
import Dwell
import DwellTesting
import Foundation
import Testing

@Suite struct RulesCheckTests {
  @Test func validRulesAreExplainedInWords() throws {
    let dir = TemporaryStore()
    let rules = try CommandLineTests.write(
      #"[{"id":"bonus","when":{"screen":"Lessons","seconds":1800}},{"id":"s","when":{"streak":3}}]"#, to: dir,
      name: "r.json")
    let run = try CommandLineTests.dwell(["rules", "check", rules])
    #expect(run.status == 0)
    #expect(run.stdout.contains("bonus: unlocks after 30 min in Lessons"))
    #expect(run.stdout.contains("s: unlocks after 3 days in a row of use"))
  }

  /// Valid rules a designer most likely did not mean get a note, and still exit 0: screen
  /// names apart only by case, an achievement's later tier reached before an earlier one.
  @Test func likelySlipsGetANote() throws {
    let dir = TemporaryStore()
    let pack = try CommandLineTests.write(
      """
      unlock "a" { when = { screen = "Review", seconds = minutes(5) } }
      unlock "b" { when = { all = { { screen = "review", visits = 3 }, { sessions = 2 } } } }
      unlock "c" { when = { screen = "Shop", visits = 1 } }
      achievement "t" { tiers = {
        { "bronze", when = { screen = "Lessons", seconds = minutes(15) } },
        { "silver", when = { screen = "Lessons", seconds = minutes(30) } },
        { "gold", when = { screen = "Lessons", seconds = minutes(20) } },
      } }
      """, to: dir, name: "p.lua")
    let run = try CommandLineTests.dwell(["rules", "check", pack])
    #expect(run.status == 0)
    let notes = run.stdout.split(separator: "\n").filter { $0.hasPrefix("note: ") }
    #expect(notes.count == 2, "\(run.stdout)")
    #expect(notes.contains { $0.contains("'Review' (rule a) and 'review' (rule b) differ only in case") })
    #expect(notes.contains { $0.contains("tier 'gold' (20 min in Lessons) comes after tier 'silver'") })
    let clean = try CommandLineTests.dwell(["rules", "check", "rules/learning"])
    #expect(clean.status == 0 && !clean.stdout.contains("note: "), "\(clean.stdout)")
  }

  @Test func sandboxViolationsAndSyntaxErrorsFail() throws {
    let dir = TemporaryStore()
    let hostile = try CommandLineTests.write(
      "unlock \"x\" { check = function(u) return os.time() > 0 end }\n-- io.open in a comment is fine\n", to: dir,
      name: "x.lua")
    let run = try CommandLineTests.dwell(["rules", "check", hostile])
    #expect(run.status == 1)
    #expect(run.stdout.contains("x.lua:1: uses 'os'"))
    #expect(!run.stdout.contains("'io'"))
    let broken = try CommandLineTests.write("unlock \"y\" {\n", to: dir, name: "y.lua")
    let syntax = try CommandLineTests.dwell(["rules", "check", broken])
    #expect(syntax.status == 1)
    #expect(syntax.stderr.contains("y.lua:1: the '{' opened here is never closed; add '}'"))
    #expect(try CommandLineTests.dwell(["rules"]).status == 2)
  }

  /// The scan for what the sandbox lacks finds a library or function by its name alone, not
  /// inside a longer name, a field or a comment.
  @Test func theSandboxScanMatchesWholeNamesOnly() throws {
    let dir = TemporaryStore()
    let lines = [
      "local a = pos.x", "local b = u.os(1)", "local c = myload(2)", "local d = 'a' -- require'x'",
      "local e = os .time()", "local f = require\"mod\"", "local g = load (\"x\")", "local h = x+debug[1]",
      "local i = io:write()",
    ]
    let file = try CommandLineTests.write(lines.joined(separator: "\n") + "\n", to: dir, name: "scan.lua")
    let run = try CommandLineTests.dwell(["rules", "check", file])
    let flagged = run.stdout.split(separator: "\n").filter { $0.contains(": uses '") }
      .map { $0.split(separator: ":")[2] }
    #expect(flagged == ["5", "6", "7", "8", "9"])
    #expect(run.stdout.contains("scan.lua:5: uses 'os'") && run.stdout.contains("scan.lua:9: uses 'io'"))
  }
}
