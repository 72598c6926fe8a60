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
