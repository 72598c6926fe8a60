// dwell rules check on the conditions on points and level: every invalid form is refused
// naming the rule (and the file), as `dwell replay` would refuse it.
import Dwell
import DwellTesting
import Foundation
import Testing

@Suite struct RulesCheckPointsTests {
  @Test func invalidPointsAndLevelFormsAreRefusedWithTheRule() throws {
    let dir = TemporaryStore()
    let cases: [(name: String, text: String, expected: [String])] = [
      (
        "neg.json", #"[{"id":"neg","when":{"points":-5}}]"#,
        ["neg.json:1", "rule 'neg'", "'points' must not be negative"]
      ),
      ("nolevels.json", #"[{"id":"lvl","when":{"level":"Bloom"}}]"#, ["rule 'lvl'", "the rules define no levels"]),
      (
        "daily.json", #"[{"id":"daily","every":"day","when":{"all":[{"points":5},{"sessions":1}]}}]"#,
        ["rule 'daily'", "cannot count points"]
      ),
      (
        "p.lua", "levels { { \"Seed\", 0 }, { \"Bloom\", 100 } }\nunlock \"bloomed\" { when = { level = \"Blom\" } }",
        ["rule 'bloomed'", "'Blom', which is not a level", "did you mean 'Bloom'"]
      ),
    ]
    for item in cases {
      let file = try CommandLineTests.write(item.text, to: dir, name: item.name)
      let run = try CommandLineTests.dwell(["rules", "check", file])
      #expect(run.status != 0, "\(item.name)")
      for part in item.expected { #expect(run.stderr.contains(part), "\(item.name): \(run.stderr)") }
    }
    let good = try CommandLineTests.write(
      "levels { { \"Seed\", 0 }, { \"Bloom\", 100 } }\nunlock \"bloomed\" { when = { level = \"Bloom\" } }", to: dir,
      name: "good.lua")
    let run = try CommandLineTests.dwell(["rules", "check", good])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("bloomed: unlocks after level Bloom reached"))
  }
}
