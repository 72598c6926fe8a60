// The terminal host example, built and run as an app developer would.
import Dwell
import DwellTesting
import Foundation
import Testing

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
