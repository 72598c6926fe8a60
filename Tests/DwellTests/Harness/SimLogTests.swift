import DwellHarness
import DwellTesting
import Foundation
import Testing

/// The simulator's log says each thing once and shows quoted text escaped: after N launches a
/// plugin's print appeared N times (handlers were added at every launch), and a command
/// line's control characters reached the terminal raw.
@Suite struct SimLogTests {
  static let counting = """
    unlock "good" { when = { screen = "Lessons", seconds = 60 } }
    local p = plugin "cnt"
    p.on("session_start", function(u)
      p.state.n = (p.state.n or 0) + 1
      print("session", p.state.n)
    end)
    """

  /// Each session's print is logged once, however many launches and reloads came
  /// before, and each reload says so once.
  @Test func aLineIsLoggedOnceWhateverTheLaunchesAndReloads() throws {
    let dir = try SimulatorTests.pack(Self.counting)
    let sim = try SimulatorTests.sim(dir)
    defer { sim.close() }
    for command in [
      "quit", "skip 1 days", "quit", "skip 1 days", "reload", "quit", "skip 1 days", "reload",
    ] {
      _ = try sim.perform(command)
    }
    let log = sim.log.map(\.text)
    for session in 1...4 {
      let printed = log.filter { $0.hasSuffix("session\t\(session)") || $0.hasSuffix("session\\t\(session)") }
      #expect(printed.count == 1, "session \(session): \(printed)")
    }
    #expect(log.filter { $0.hasPrefix("Rules reloaded") }.count == 2, "\(log)")
    // A reload after a save is one reload (the check for a change before each command
    // and the reload itself both reloaded).
    try (Self.counting + "\n-- saved again\n").write(
      toFile: dir.directory + "/pack.lua", atomically: true, encoding: .utf8)
    _ = try sim.perform("reload")
    _ = try sim.perform("status")
    #expect(sim.log.map(\.text).filter { $0.hasPrefix("Rules reloaded") }.count == 3, "\(sim.log.map(\.text))")
  }

  /// A script's command line, its answer and the log lines it causes show control
  /// characters escaped (`dwell sim --script`).
  @Test func aScriptsLinesShowControlsEscaped() throws {
    let dir = try SimulatorTests.pack(#"unlock "a" { when = { sessions = 1 } }"#)
    let script = try CommandLineTests.write(
      "open \"a\u{1}b\u{1B}[2Jc\"\nwait 1m\nunknown\u{1B}]0;pwned\u{7}\n", to: dir, name: "s.txt")
    let run = try CommandLineTests.dwell(["sim", "--rules", dir.directory, "--script", script])
    #expect(run.status == 1)
    #expect(run.stdout.contains("> open \"a\\u{1}b\\u{1B}[2Jc\""), "\(run.stdout)")
    for output in [run.stdout, run.stderr] {
      let raw = output.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }
      #expect(raw.isEmpty, "\(output.debugDescription)")
    }
  }

  /// `undo` rebuilds the log in the order things happened: the launch's unlock first, then
  /// the replayed commands, then the line saying what was undone (the launch unlock came
  /// last, after "Undid", #26).
  @Test func undoRebuildsTheLogInOrder() throws {
    let dir = try SimulatorTests.pack(#"unlock "first" { when = { sessions = 1 } }"#)
    let sim = try SimulatorTests.sim(dir)
    defer { sim.close() }
    for command in ["open Home", "wait 1m", "undo"] { _ = try sim.perform(command) }
    let log = sim.log.map(\.text)
    let unlock = log.firstIndex { $0.contains("first") && !$0.hasPrefix("Rules") }
    let opened = log.firstIndex { $0.hasPrefix("Opened Home") }
    let undid = log.firstIndex { $0.hasPrefix("Undid 'wait 1m'") }
    #expect(unlock != nil && opened != nil && undid != nil, "\(log)")
    if let unlock, let opened, let undid {
      #expect(unlock < opened && opened < undid, "\(log)")
      #expect(undid == log.count - 1, "\(log)")
    }
  }
}
