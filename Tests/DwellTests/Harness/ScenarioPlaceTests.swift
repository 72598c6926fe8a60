import DwellHarness
import DwellTesting
import Foundation
import Testing

/// A scenario is read only from inside its pack's folder: a link in `tests/` to a file
/// outside (`/etc/shadow`) was read and its first line printed as the failing command.
@Suite struct ScenarioPlaceTests {
  @Test func aScenarioThatLeadsOutsideThePackIsRefusedUnread() throws {
    let outside = TemporaryStore()
    let secret = try CommandLineTests.write("SECRET-LINE-1\nexpect sessions 1\n", to: outside, name: "secret.txt")
    let dir = try LineEndTests().pack()
    let tests = dir.directory + "/tests"
    try FileManager.default.createSymbolicLink(atPath: tests + "/leak.scenario", withDestinationPath: secret)
    // A link that stays in the pack is a scenario like any other.
    try "open Lessons\nexpect sessions 1\n".write(
      toFile: dir.directory + "/shared.txt", atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: tests + "/inside.scenario", withDestinationPath: "../shared.txt")
    let run = try CommandLineTests.dwell(["test", dir.directory])
    #expect(run.status == 1)
    #expect(run.stdout.contains("FAIL  leak"), "\(run.stdout)")
    #expect(run.stdout.contains("outside the pack"), "\(run.stdout)")
    #expect(run.stdout.contains("PASS  inside (1 expectation)"), "\(run.stdout)")
    #expect(!run.stdout.contains("SECRET") && !run.stderr.contains("SECRET"))
  }

  /// A tests folder that is itself a link out of the pack leads every scenario outside.
  @Test func aTestsFolderThatLeadsOutsideThePackIsRefused() throws {
    let outside = TemporaryStore()
    _ = try CommandLineTests.write("SECRET-LINE-2\n", to: outside, name: "x.scenario")
    let dir = try LineEndTests().pack()
    try FileManager.default.removeItem(atPath: dir.directory + "/tests")
    try FileManager.default.createSymbolicLink(atPath: dir.directory + "/tests", withDestinationPath: outside.directory)
    let run = try CommandLineTests.dwell(["test", dir.directory])
    #expect(run.status == 1)
    #expect(run.stdout.contains("outside the pack"), "\(run.stdout)")
    #expect(!run.stdout.contains("SECRET"))
  }
}
