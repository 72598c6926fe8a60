internal import Dwell
internal import DwellHarness
internal import Foundation

/// `dwell test PACK`: runs the scenarios beside a rule pack and says which pass; `--junit`
/// writes the results for CI.
enum TestCommand {
  static let command = Command(
    name: "test",
    summary: "Run a rule pack's scenarios (tests/*.scenario) and report each",
    discussion: """
      Runs every PACK/tests/*.scenario file, several at once, each in a fresh
      simulator with the pack's rules. A scenario is simulator commands (as in
      'dwell sim') and expectations; it fails at the first expectation that does not
      hold, or the first command that does not run, and says what was seen instead.
      A scenario with no expectation fails: it would pass whatever the rules do.
      Lines may end in LF, CRLF or CR.
      Exit 0 when every scenario passes, 1 otherwise (or when there are none).
      """,
    arguments: [.init("PACK", "A rules folder (or .lua file) with a tests/ folder beside its scripts")],
    options: [.value("junit", "FILE", "Also write the results as JUnit XML to FILE")] + fuzzOptions,
    sections: [
      .init(
        "SCENARIOS",
        """
        # A comment. Directives come first; each has a default.
        @start 2026-05-04 09:00      (a Monday; the default)
        @tz Europe/Berlin            (default UTC)
        @idle-timeout 90s            (default off; also @session-timeout)
        open Lessons                 any command of 'dwell sim'
        wait 30m
        expect unlocked bonus-level  or: expect unlocked bonus-level at 09:30
        expect locked gold           a rule not unlocked yet
        expect points 55             expect level Sprout
        expect time Lessons 30m      all time on a screen, to the millisecond
        expect notified "Night owl"  a plugin's notification, by title
        expect sessions 2
        expect invariants            what --fuzz checks (see FUZZING)
        """),
      .init(
        "EXAMPLE",
        """
        $ dwell test rules/learning
        PASS  bonus-level (3 expectations)
        FAIL  streak
              streak.scenario:12: expect unlocked streak-freeze
              saw: locked (2 of 3 days)
        1 of 2 scenarios failed
        """),
      fuzzSection,
    ],
    run: run)

  static func run(_ args: Arguments) throws {
    let pack = args.argument("PACK")
    guard FileManager.default.fileExists(atPath: pack) else { throw CommandFailure("\(pack): no such file or folder") }
    if let count = args.value("fuzz") { return try fuzz(args, pack: pack, count: count) }
    let files = Scenario.files(forPack: pack)
    guard !files.isEmpty else {
      throw CommandFailure(
        "\(pack) has no scenarios: write tests/NAME.scenario beside its scripts (see 'dwell test --help')")
    }
    let results = ScenarioRunner.run(files, pack: pack)
    let color = Terminal.wantsColor
    func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    for result in results {
      if let failure = result.failure {
        Terminal.print("\(paint("FAIL", "31"))  \(escapingControls(result.name))")
        Terminal.show("      \(failure.line)")
        Terminal.show("      saw: \(failure.seen)")
      } else {
        Terminal.print(
          "\(paint("PASS", "32"))  \(escapingControls(result.name)) (\(result.passed) expectation\(result.passed == 1 ? "" : "s"))"
        )
      }
    }
    if let path = args.value("junit") {
      try Files.write(JUnitReport.xml([(pack, results)]), to: path, sparing: Output.packFiles(pack) + files)
    }
    let failed = results.filter { !$0.succeeded }.count
    guard failed == 0 else { throw CommandFailure("\(failed) of \(results.count) scenarios failed") }
    Terminal.print("\(results.count) scenario\(results.count == 1 ? "" : "s") passed")
  }
}
