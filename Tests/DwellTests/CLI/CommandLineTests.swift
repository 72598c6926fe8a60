import Dwell
import DwellTesting
import Foundation
import Testing

/// End-to-end tests of the built `dwell` binary: output, exit codes, JSON shapes.
@Suite struct CommandLineTests {
  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static var binary: URL {
    // The test bundle sits in the same build directory as the executable.
    var url = Bundle.main.bundleURL
    for _ in 0..<3 where !FileManager.default.fileExists(atPath: url.appendingPathComponent("dwell").path) {
      url = url.deletingLastPathComponent()
    }
    return url.appendingPathComponent("dwell")
  }

  static func dwell(_ arguments: [String]) throws -> Run {
    let result = try Subprocess.run(binary.path, arguments)
    #expect(!result.timedOut, "dwell \(arguments.joined(separator: " ")) did not finish in time")
    return Run(status: result.status, stdout: result.stdout, stderr: result.stderr)
  }

  static func write(_ text: String, to directory: TemporaryStore, name: String) throws -> String {
    let path = directory.directory + "/" + name
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static let trace = """
    {"t":0,"event":"launch","wall":"2026-05-04T08:00:00Z","tz":"Europe/Berlin"}
    {"t":0.2,"event":"appear","screen":"Home","id":"a"}
    {"t":0.3,"event":"active"}
    {"t":30.3,"event":"appear","screen":"Lessons","id":"b"}
    {"t":30.35,"event":"disappear","id":"a"}
    {"t":250.5,"event":"inactive"}
    {"t":251,"event":"background"}
    {"t":900,"event":"foreground"}
    {"t":900.1,"event":"active"}
    {"t":960.1,"event":"disappear","id":"b"}
    {"t":960.2,"event":"appear","screen":"Home","id":"c"}
    {"t":1000,"event":"terminate"}
    """

  @Test func replayPrintsTheSpecReport() throws {
    let dir = TemporaryStore()
    let trace = try Self.write(Self.trace, to: dir, name: "t.jsonl")
    let run = try Self.dwell(["replay", trace, "--json"])
    #expect(run.status == 0)
    let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    let app = json?["app"] as? [String: Any]
    #expect(app?["seconds"] as? Double == 350.1)
    #expect(app?["sessions"] as? Int == 1)
    let screens = json?["screens"] as? [String: [String: Any]]
    #expect(screens?["Home"]?["visits"] as? Int == 2)
    #expect(json?["unlocks"] == nil)
  }

  /// `rules check` reads a pack as the loader does: a sparse 1 GiB script is refused from its
  /// size, not read whole (its warnings scan read every file with no bound), and a megabyte
  /// key gets no "did you mean" search.
  @Test func rulesCheckRefusesAHugeFileAndKeyAtOnce() throws {
    let dir = TemporaryStore()
    let big = dir.directory + "/big"
    try FileManager.default.createDirectory(atPath: big, withIntermediateDirectories: true)
    #expect(FileManager.default.createFile(atPath: big + "/pack.lua", contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: big + "/pack.lua"))
    try handle.truncate(atOffset: 1 << 30)
    try handle.close()
    let run = try Self.dwell(["rules", "check", big])
    #expect(run.status != 0)
    #expect(run.stderr.contains("larger than 4 MiB"), "\(run.stderr)")
    let key = try Self.write(
      #"unlock "k" { when = { [string.rep("w", 3000000)] = 1 } }"#, to: dir, name: "key.lua")
    let keyed = try Self.dwell(["rules", "check", key])
    #expect(keyed.status != 0)
    #expect(keyed.stderr.contains("unknown key"), "\(keyed.stderr.prefix(300))")
  }

  @Test func replayThenReportFromTheStoreAgree() throws {
    let dir = TemporaryStore()
    let trace = try Self.write(Self.trace, to: dir, name: "t.jsonl")
    let rules = try Self.write(#"[{"id":"five","when":{"appSeconds":300}}]"#, to: dir, name: "r.json")
    let replayed = try Self.dwell(["replay", trace, "--rules", rules, "--store", dir.path, "--json"])
    #expect(replayed.status == 0)
    let reported = try Self.dwell(["report", dir.path, "--json"])
    #expect(reported.status == 0)
    func figures(_ text: String) throws -> NSDictionary {
      var object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
      object["unlocks"] = nil
      return object as NSDictionary
    }
    #expect(try figures(replayed.stdout) == figures(reported.stdout))
    let reportedUnlocks = try JSONSerialization.jsonObject(with: Data(reported.stdout.utf8)) as? [String: Any]
    #expect(reportedUnlocks?["unlocks"] as? [String: String] == ["five": "2026-05-04T08:15:49.900Z"])
    // Replaying onto an existing store is refused rather than overwriting it.
    let again = try Self.dwell(["replay", trace, "--store", dir.path])
    #expect(again.status == 1)
  }

  @Test func badInputGetsOneClearSentenceAndTheRightExitCode() throws {
    let dir = TemporaryStore()
    let bad = try Self.write("{\"t\":0,\"event\":\"active\"}\n", to: dir, name: "bad.jsonl")
    let run = try Self.dwell(["replay", bad])
    #expect(run.status == 1)
    #expect(run.stderr.contains("line 1:"))
    #expect(!run.stderr.contains("Fatal error"))
    #expect(try Self.dwell(["replay", bad, "--frobnicate"]).status == 2)
    #expect(try Self.dwell(["teleport"]).status == 2)
    #expect(try Self.dwell(["report", dir.directory + "/missing.sqlite"]).status == 1)
    let notSQLite = try Self.write(String(repeating: "x", count: 5000), to: dir, name: "junk.sqlite")
    let junk = try Self.dwell(["report", notSQLite])
    #expect(junk.status == 1)
    #expect(junk.stderr.contains("cannot read the store"))
  }

  /// The help comes from the command table: every listed command answers `--help` with its
  /// own usage, internal commands are not listed, and every command refuses unknown options.
  @Test func everyListedCommandHasItsOwnHelp() throws {
    let top = try Self.dwell(["--help"])
    #expect(top.status == 0)
    // Rows are "  NAME ARGUMENTS  Summary"; continuation lines of a summary are indented further.
    let rows = top.stdout.split(separator: "\n", omittingEmptySubsequences: false).drop { $0 != "COMMANDS:" }
      .dropFirst().prefix { !$0.isEmpty }.filter { !$0.hasPrefix("   ") }
    let listed = rows.map { row in
      let synopsis = row.dropFirst(2).components(separatedBy: "  ")[0]
      return synopsis.split(separator: " ").filter { $0.lowercased() == $0 }.joined(separator: " ")
    }
    #expect(listed.contains("replay") && listed.contains("rules check") && listed.contains("sim"))
    #expect(!listed.contains("kill-child") && !listed.contains("share-child"))
    for name in listed {
      let words = name.split(separator: " ").map(String.init)
      let help = try Self.dwell(words + ["--help"])
      #expect(help.status == 0, "dwell \(name) --help")
      #expect(help.stdout.hasPrefix("USAGE: dwell \(name)"), "dwell \(name) --help")
      #expect(help.stdout.contains("OPTIONS:\n"), "dwell \(name) --help")
      #expect(try Self.dwell(words + ["--no-such-option"]).status == 2, "dwell \(name) --no-such-option")
    }
    #expect(try Self.dwell(["help", "export"]).stdout.hasPrefix("USAGE: dwell export STORE"))
    #expect(try Self.dwell(["rules"]).status == 2)
    #expect(try Self.dwell(["replay"]).status == 2)
  }

  @Test func demoRunsAndIsDeterministic() throws {
    let dir = TemporaryStore()
    let a = try Self.dwell(["demo", "--days", "7", "--seed", "4", "--html", dir.directory + "/a.html"])
    let b = try Self.dwell(["demo", "--days", "7", "--seed", "4", "--html", dir.directory + "/b.html"])
    #expect(
      try String(contentsOfFile: dir.directory + "/a.html", encoding: .utf8)
        == String(contentsOfFile: dir.directory + "/b.html", encoding: .utf8))
    #expect(a.status == 0)
    #expect(a.stdout.replacingOccurrences(of: "a.html", with: "b.html") == b.stdout)
    #expect(a.stdout.contains("App today"))
  }

  /// The demo's screens are the sample pack's: the report's screen table has Lessons, the
  /// screen the rules count, and no two names a slip apart ("Lesson" beside "Lessons").
  @Test func theDemoNamesItsScreensAsThePackDoes() throws {
    let directory = TemporaryStore()
    let run = try Self.dwell(["demo", "--days", "14", "--html", directory.directory + "/d.html"])
    #expect(run.status == 0, "\(run.stderr)")
    let table = run.stdout.components(separatedBy: "\nScreen ").dropFirst().first ?? ""
    let names = table.components(separatedBy: "\n\n")[0].split(separator: "\n").dropFirst()
      .compactMap { $0.split(separator: " ").first.map(String.init) }
    #expect(names.contains("Lessons"), "\(names)")
    for name in names {
      let near = Spelling.closest(to: name, in: names.filter { $0 != name })
      #expect(near == nil, "'\(name)' and '\(near ?? "")' in one demo")
    }
  }
}

/// The Linux host in examples/ embeds Dwell through the public API; CI builds and runs it.
@Suite struct ExampleHostTests {
  static func host(_ arguments: [String], input: String = "") throws -> CommandLineTests.Run {
    let path = CommandLineTests.binary.deletingLastPathComponent().appendingPathComponent("dwell-example-host").path
    let result = try Subprocess.run(path, arguments, input: input)
    #expect(!result.timedOut, "the example host did not finish in time")
    return .init(status: result.status, stdout: result.stdout, stderr: result.stderr)
  }

  @Test func theSimulatedSessionUnlocksAndNotifies() throws {
    let run = try Self.host(["--simulate"])
    #expect(run.status == 0)
    #expect(run.stdout.contains("★ unlocked bonus-level"))
    #expect(run.stdout.contains("✉ Welcome back!"))
    #expect(run.stdout.contains("Lessons today: 3 min of 10 min"))
    #expect(run.stdout.contains("Lessons all time: 15 min in 2 visits"))
  }

  @Test func theInteractiveHostCountsRealTime() throws {
    let run = try Self.host([], input: "Home\nLessons\nnowhere\nstatus\nquit\n")
    #expect(run.status == 0)
    #expect(run.stdout.contains("Now on Lessons."))
    #expect(run.stdout.contains("Unknown screen 'nowhere'."))
    #expect(run.stdout.contains("· Bonus level: 0 min of 10 min in Lessons"))
  }
}

@Suite struct StoreCommandTests {
  @Test func exportCheckAndEraseAStore() throws {
    let dir = TemporaryStore()
    let trace = try CommandLineTests.write(CommandLineTests.trace, to: dir, name: "t.jsonl")
    #expect(try CommandLineTests.dwell(["replay", trace, "--store", dir.path]).status == 0)
    let csv = try CommandLineTests.dwell(["export", dir.path, "--format", "csv"])
    #expect(csv.status == 0)
    let rows = csv.stdout.split(separator: "\r\n")
    #expect(rows.first == "kind,screen,day,started_at,ended_at,seconds,rule,title,points,source,reason,state,count")
    #expect(rows.filter { $0.hasPrefix("visit,") }.count == 3)
    #expect(rows.contains("day,,2026-05-04,,,350.1,,,,,,,"))
    #expect(rows.contains("day,Home,2026-05-04,,,69.85,,,,,,,2"))
    #expect(rows.last == "sessions,,,,,,,,,,,,1")
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

@Suite struct ReportTests {
  @Test func theTerminalReportAndTheHTMLPage() throws {
    let dir = TemporaryStore()
    let trace = try CommandLineTests.write(
      TraceGenerator(days: 20, seed: 9).events().map(\.jsonLine).joined(separator: "\n"), to: dir, name: "t.jsonl")
    #expect(try CommandLineTests.dwell(["replay", trace, "--store", dir.path]).status == 0)
    let html = dir.directory + "/report.html"
    let run = try CommandLineTests.dwell(["report", dir.path, "--html", html, "--days", "5"])
    #expect(run.status == 0)
    #expect(run.stdout.contains("App today"))
    #expect(run.stdout.contains("Screen") && run.stdout.contains("Average"))
    #expect(run.stdout.contains("App, last 5 days"))
    #expect(
      run.stdout.split(separator: "\n").filter { !$0.hasPrefix("HTML report written") }.allSatisfy { $0.count <= 80 })
    #expect(!run.stdout.contains("\u{1B}["))
    let page = try String(contentsOfFile: html, encoding: .utf8)
    // Self-contained: no scripts, no external resources.
    #expect(!page.contains("<script"))
    #expect(!page.contains("http://") && !page.contains("https://") && !page.contains("src="))
    for section in ["Time per day, by screen", "Share of time by screen", "Time of day", "Active days", "Unlocks"] {
      #expect(page.contains("<h2>\(section)"))
    }
    #expect(page.components(separatedBy: "<svg").count - 1 == 4)
    #expect(page.contains("prefers-color-scheme: dark"))
    let screen = try CommandLineTests.dwell(["report", dir.path, "--screen", "Lessons"])
    #expect(screen.stdout.contains("Lessons today"))
    #expect(try CommandLineTests.dwell(["report", dir.path, "--screen", "Nowhere"]).status == 1)
  }

  /// The terminal report and the HTML page round a time to the same minute.
  @Test func bothReportsRoundToTheSameMinute() throws {
    let dir = TemporaryStore()
    let clock = ManualClock()
    let wall = ManualWallClock(
      clock: clock, wall: parseWall("2026-05-04T08:00:00Z"), timeZone: TimeZone(identifier: "UTC") ?? .current)
    let engine = try Engine(store: Dwell.Store(path: dir.path), clock: clock, wallClock: wall, scheduler: clock)
    engine.record(.active)
    engine.record(.appear(screen: "Home", id: ScreenInstance("h")))
    clock.advance(by: .seconds(3 * 3600 + 19 * 60 + 40))
    engine.terminate()
    let html = dir.directory + "/r.html"
    let run = try CommandLineTests.dwell(["report", dir.path, "--html", html])
    #expect(run.status == 0)
    let home = run.stdout.split(separator: "\n").filter { $0.contains("Home") }
    #expect(home.contains { $0.contains("3h 20m") }, "\(run.stdout)")
    #expect(!run.stdout.contains("3h 19m"), "\(run.stdout)")
    let page = try String(contentsOfFile: html, encoding: .utf8)
    #expect(page.contains("3 h 20 min") && !page.contains("3 h 19 min"))
  }

  @Test func anEmptyStoreStillReports() throws {
    let dir = TemporaryStore()
    _ = try Dwell.Store(path: dir.path)
    let html = dir.directory + "/r.html"
    let run = try CommandLineTests.dwell(["report", dir.path, "--html", html])
    #expect(run.status == 0)
    #expect(try String(contentsOfFile: html, encoding: .utf8).contains("No time recorded yet."))
  }
}

@Suite struct ExportRoundTripTests {
  /// Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF).
  static func parseCSV(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    var iterator = Array(text).makeIterator()
    var pending: Character? = nil
    while let c = pending ?? iterator.next() {
      pending = nil
      if quoted {
        if c == "\"" {
          if let next = iterator.next() {
            if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
          } else {
            quoted = false
          }
        } else {
          field.append(c)
        }
      } else if c == "\"" {
        quoted = true
      } else if c == "," {
        row.append(field); field = ""
      } else if c == "\r\n" || c == "\n" {
        row.append(field); rows.append(row); row = []; field = ""
      } else {
        field.append(c)
      }
    }
    if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
    return rows
  }

  @Test func csvRoundTripsToTheReportsTotals() throws {
    let dir = TemporaryStore()
    let trace = try CommandLineTests.write(
      TraceGenerator(days: 10, seed: 4).events().map(\.jsonLine).joined(separator: "\n"), to: dir, name: "t.jsonl")
    let replay = try CommandLineTests.dwell(["replay", trace, "--store", dir.path, "--json"])
    let report = try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [String: Any]
    let app = report?["app"] as? [String: Any]
    let csv = try CommandLineTests.dwell(["export", dir.path, "--format", "csv"]).stdout
    let rows = Self.parseCSV(csv)
    #expect(
      rows.first == [
        "kind", "screen", "day", "started_at", "ended_at", "seconds", "rule", "title", "points", "source", "reason",
        "state", "count",
      ])
    #expect(rows.dropFirst().allSatisfy { $0.count == 13 })
    let appDays = rows.filter { $0[0] == "day" && $0[1].isEmpty }
    let total = appDays.reduce(0.0) { $0 + (Double($1[5]) ?? 0) }
    #expect(abs(total - ((app?["seconds"] as? Double) ?? -1)) < 0.01)
    #expect(appDays.count == (app?["days"] as? [String: Any])?.count)
    let screens = report?["screens"] as? [String: [String: Any]] ?? [:]
    for (name, figures) in screens {
      let days = rows.filter { $0[0] == "day" && $0[1] == name }.reduce(0.0) { $0 + (Double($1[5]) ?? 0) }
      #expect(abs(days - ((figures["seconds"] as? Double) ?? -1)) < 0.01, "\(name)")
      let visits = rows.filter { $0[0] == "day" && $0[1] == name }.reduce(0) { $0 + (Int($1[12]) ?? 0) }
      #expect(visits == figures["visits"] as? Int, "\(name): visits by day add up to the screen's visits")
    }
  }

  @Test func reportShowsRuleProgressFromACopy() throws {
    let dir = TemporaryStore()
    let trace = try CommandLineTests.write(CommandLineTests.trace, to: dir, name: "t.jsonl")
    #expect(try CommandLineTests.dwell(["replay", trace, "--store", dir.path]).status == 0)
    let rules = try CommandLineTests.write(
      #"[{"id":"hour","when":{"appSeconds":3600}},{"id":"five","when":{"appSeconds":300}}]"#, to: dir, name: "r.json")
    let before = try Data(contentsOf: URL(fileURLWithPath: dir.path))
    let run = try CommandLineTests.dwell(["report", dir.path, "--rules", rules])
    #expect(run.stdout.contains("· hour  █░░░░░░░░░░░░░░░ 5 min of 1 h in the app"))
    #expect(run.stdout.contains("✓ five  reached"))
    #expect(run.stdout.contains("1 session · 1 active day"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path)) == before)
  }
}
