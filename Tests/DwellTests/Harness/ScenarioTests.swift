import DwellHarness
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `dwell test`: the sample packs' scenarios pass, a wrong expectation fails at its line
/// with what was seen, and the JUnit XML parses with the elements CI systems read.
@Suite struct ScenarioTests {
  static let rules = TestPaths.packageRoot.appendingPathComponent("rules").path

  @Test(arguments: ["learning", "game", "reading"])
  func theSamplePacksPassTheirScenarios(pack: String) {
    let results = ScenarioRunner.run(pack: Self.rules + "/" + pack)
    #expect(!results.isEmpty)
    for result in results {
      #expect(result.succeeded, "\(result.name): \(result.failure.map { "\($0.line) saw: \($0.seen)" } ?? "")")
      #expect(result.passed > 0)
    }
  }

  @Test func theBinaryRunsAPacksScenarios() throws {
    let run = try CommandLineTests.dwell(["test", Self.rules + "/learning"])
    #expect(run.status == 0)
    #expect(run.stdout.contains("PASS  bonus-level (7 expectations)"))
    let scenarios = try FileManager.default.contentsOfDirectory(atPath: Self.rules + "/learning/tests")
      .filter { $0.hasSuffix(".scenario") }
    #expect(scenarios.count >= 4)
    #expect(run.stdout.hasSuffix("\(scenarios.count) scenarios passed\n"))
  }

  /// A copy of the learning pack with scenarios that fail in each way.
  static func failingPack() throws -> TemporaryStore {
    let dir = TemporaryStore()
    for name in try FileManager.default.contentsOfDirectory(atPath: rules + "/learning") where name.hasSuffix(".lua") {
      try FileManager.default.copyItem(atPath: rules + "/learning/" + name, toPath: dir.directory + "/" + name)
    }
    try FileManager.default.createDirectory(atPath: dir.directory + "/tests", withIntermediateDirectories: true)
    let scenarios = [
      "good": "open Lessons\nwait 30m\nexpect unlocked bonus-level at 09:30\n",
      "wrong": "open Lessons\nwait 30m\nexpect unlocked bonus-level at 09:31\nexpect points 20\n",
      "typo": "open Lessons\n\nexpect locked bonus-levle\n",
      "command": "open Lessons\nwiat 3m\nexpect points 10\n",
      "xml": "# <&'\"> in a scenario's failure stay valid XML\nexpect notified \"<Night & owl>\"\n",
    ]
    for (name, text) in scenarios {
      try text.write(toFile: "\(dir.directory)/tests/\(name).scenario", atomically: true, encoding: .utf8)
    }
    return dir
  }

  /// A pack's scenario cannot write files: `record` is refused at its line and the file is untouched.
  @Test func aScenarioCannotWriteAFile() throws {
    let dir = TemporaryStore()
    try FileManager.default.createDirectory(atPath: dir.directory + "/tests", withIntermediateDirectories: true)
    try #"unlock "a" { when = { sessions = 1 } }"#.write(
      toFile: dir.directory + "/pack.lua", atomically: true, encoding: .utf8)
    let victim = dir.directory + "/victim.txt"
    try "keep me".write(toFile: victim, atomically: true, encoding: .utf8)
    try "open Lessons\nrecord \(victim)\nexpect sessions 1\n".write(
      toFile: dir.directory + "/tests/clobber.scenario", atomically: true, encoding: .utf8)
    let run = try CommandLineTests.dwell(["test", dir.directory])
    #expect(run.status != 0)
    #expect(
      (run.stdout + run.stderr).contains("clobber.scenario:2: 'record' writes a file"), "\(run.stdout)\(run.stderr)")
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
  }

  /// A level the pack does not have is said so, with the nearest one and the pack's levels.
  @Test func anUnknownLevelIsNamedWithTheNearestOne() throws {
    let dir = TemporaryStore()
    try FileManager.default.createDirectory(atPath: dir.directory + "/tests", withIntermediateDirectories: true)
    try #"levels { { "Beginner", 0 }, { "Learner", 30 } }"#.write(
      toFile: dir.directory + "/pack.lua", atomically: true, encoding: .utf8)
    try "expect level Begginer\n".write(
      toFile: dir.directory + "/tests/l.scenario", atomically: true, encoding: .utf8)
    let run = try CommandLineTests.dwell(["test", dir.directory])
    #expect(run.status == 1)
    #expect(
      run.stdout.contains(
        "saw: the pack has no level 'Begginer' (did you mean 'Beginner'?); its levels: Beginner, Learner"),
      "\(run.stdout)")
  }

  @Test func wrongExpectationsFailAtTheirLineWithWhatWasSeen() throws {
    let dir = try Self.failingPack()
    let junit = dir.directory + "/junit.xml"
    let run = try CommandLineTests.dwell(["test", dir.directory, "--junit", junit])
    #expect(run.status == 1)
    #expect(run.stderr == "dwell: 4 of 5 scenarios failed\n")
    #expect(
      run.stdout == """
        FAIL  command
              command.scenario:2: wiat 3m
              saw: unknown command 'wiat'; did you mean 'wait'? type 'help' for the list
        PASS  good (1 expectation)
        FAIL  typo
              typo.scenario:3: expect locked bonus-levle
              saw: the pack has no rule 'bonus-levle' (did you mean 'bonus-level'?)
        FAIL  wrong
              wrong.scenario:3: expect unlocked bonus-level at 09:31
              saw: unlocked at 2026-05-04 09:30:00
        FAIL  xml
              xml.scenario:2: expect notified "<Night & owl>"
              saw: no notifications

        """)

    let document = try JUnitDocument(contentsOf: junit)
    #expect(document.elements.first == "testsuites")
    #expect(document.attributes("testsuites").first?["tests"] == "5")
    #expect(document.attributes("testsuites").first?["failures"] == "4")
    #expect(document.attributes("testsuite").count == 1)
    let cases = document.attributes("testcase")
    #expect(cases.map { $0["name"] } == ["command", "good", "typo", "wrong", "xml"])
    #expect(cases.allSatisfy { Double($0["time"] ?? "") != nil && $0["classname"] == dir.directory })
    let failures = document.attributes("failure").map { $0["message"] }
    #expect(failures.count == 4)
    #expect(failures.contains("wrong.scenario:3: expect unlocked bonus-level at 09:31"))
    #expect(failures.contains(#"xml.scenario:2: expect notified "<Night & owl>""#))
    #expect(document.text.contains("saw: unlocked at 2026-05-04 09:30:00"))
  }

  @Test(arguments: [
    (
      "@when 09:00\nopen A\n",
      "s.scenario:1: unknown directive '@when'; a scenario takes @start, @tz, @idle-timeout, @session-timeout"
    ),
    ("open A\n@tz UTC\n", "s.scenario:2: @tz goes before the first command"),
    (
      "@strat 2026-05-04 09:00\nopen A\n",
      "s.scenario:1: unknown directive '@strat' (did you mean '@start'?); a scenario takes @start, @tz, @idle-timeout, @session-timeout"
    ),
    (
      "expect unlockd a\n",
      "s.scenario:1: 'expect unlockd a' is not an expectation (did you mean 'unlocked'?): expect unlocked RULE [at HH:MM[:SS]], expect locked RULE, expect points N, expect level NAME, expect time SCREEN DURATION, expect notified \"TEXT\", expect sessions N, expect count ACTION N [today], expect earned RULE [N times | for PERIOD], expect not earned RULE [for PERIOD], expect state PLUGIN.KEY = VALUE, expect published PLUGIN.KEY = VALUE, expect invariants"
    ),
    (
      "expect unlocked a at noon\n",
      "s.scenario:1: 'at' takes a local time HH:MM or HH:MM:SS, or YYYY-MM-DD HH:MM[:SS], not 'noon'"
    ),
    ("expect points many\n", "s.scenario:1: expect points takes a whole number, not 'many'"),
    (
      "open A\n  Record \"/tmp/a b.trace\"\n",
      "s.scenario:2: 'record' writes a file, which a scenario may not do (a pack's tests are untrusted); use it in 'dwell sim' instead"
    ),
    (
      "expect time Lessons\n",
      "s.scenario:1: 'expect time Lessons' is not an expectation: expect unlocked RULE [at HH:MM[:SS]], expect locked RULE, expect points N, expect level NAME, expect time SCREEN DURATION, expect notified \"TEXT\", expect sessions N, expect count ACTION N [today], expect earned RULE [N times | for PERIOD], expect not earned RULE [for PERIOD], expect state PLUGIN.KEY = VALUE, expect published PLUGIN.KEY = VALUE, expect invariants"
    ),
  ])
  func aMalformedScenarioNamesItsLine(text: String, message: String) {
    #expect {
      try Scenario(text: text, path: "tests/s.scenario")
    } throws: { error in
      "\(error)" == message
    }
  }
}

/// A JUnit file read back with Foundation's XMLParser: the elements in order, their
/// attributes, and the text; parsing fails on anything that is not well-formed XML.
final class JUnitDocument: NSObject, XMLParserDelegate {
  var elements: [String] = []
  var attributeList: [(String, [String: String])] = []
  var text = ""

  init(contentsOf path: String) throws {
    super.init()
    let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: path)))
    parser.delegate = self
    guard parser.parse() else {
      throw parser.parserError ?? CocoaError(.fileReadCorruptFile)
    }
  }

  func attributes(_ element: String) -> [[String: String]] {
    attributeList.filter { $0.0 == element }.map(\.1)
  }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String]
  ) {
    elements.append(elementName)
    attributeList.append((elementName, attributes))
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
}
