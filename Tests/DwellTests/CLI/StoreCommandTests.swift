// dwell export, check and erase on a real store.
import Dwell
import DwellTesting
import Foundation
import Testing

@Suite struct StoreCommandTests {
  @Test func exportCheckAndEraseAStore() throws {
    let dir = TemporaryStore()
    let trace = try CommandLineTests.write(CommandLineTests.trace, to: dir, name: "t.jsonl")
    #expect(try CommandLineTests.dwell(["replay", trace, "--store", dir.path]).status == 0)
    let csv = try CommandLineTests.dwell(["export", dir.path, "--format", "csv"])
    #expect(csv.status == 0)
    let rows = csv.stdout.split(separator: "\r\n")
    #expect(
      rows.first
        == "kind,screen,day,started_at,ended_at,seconds,rule,title,points,source,reason,state,count,action,period")
    #expect(rows.filter { $0.hasPrefix("visit,") }.count == 3)
    #expect(rows.contains("day,,2026-05-04,,,350.1,,,,,,,,,"))
    #expect(rows.contains("day,Home,2026-05-04,,,69.85,,,,,,,2,,"))
    #expect(rows.last == "sessions,,,,,,,,,,,,1,,")
    let json = try CommandLineTests.dwell(["export", dir.path, "--format", "json"])
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect((object?["visits"] as? [Any])?.count == 3)
    let check = try CommandLineTests.dwell(["check", dir.path])
    #expect(check.status == 0)
    #expect(check.stdout.contains("Integrity: ok"))
    #expect(check.stdout.contains("Days:      2026-05-04 to 2026-05-04"))
    let erase = try CommandLineTests.dwell(["erase", dir.path])
    #expect(erase.stdout.contains("3 visits"))
    #expect(try CommandLineTests.dwell(["check", dir.path]).stdout.contains("0 visits"))
    #expect(try CommandLineTests.dwell(["export", dir.path]).status == 2)
    let junk = try CommandLineTests.write(String(repeating: "x", count: 5000), to: dir, name: "junk.sqlite")
    #expect(try CommandLineTests.dwell(["check", junk]).status == 1)
  }
}
