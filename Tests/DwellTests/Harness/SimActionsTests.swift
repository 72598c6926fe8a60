import Dwell
import DwellHarness
import Foundation
import Testing

/// Actions and recurring rules in `dwell sim`: `do NAME [COUNT]` records an action, the
/// view shows the counts, this period's progress and what each recurring rule earned, and
/// every earning is logged with its period and points; in process and in a real terminal.
@Suite struct SimActionsTests {
  static let pack = """
    achievement "daily-calm" { every = "day", points = 10, when = { appSeconds = minutes(10) } }
    unlock "quizzer" { every = "day", when = { action = "quiz_done", count = 3 } }
    """

  @Test func doRecordsAnActionAndEachEarningIsLogged() throws {
    let dir = try SimulatorTests.pack(Self.pack)
    let sim = try SimulatorTests.sim(dir)
    defer { sim.close() }
    try sim.perform("open Lessons")
    try sim.perform("do quiz_done")
    try sim.perform("do quiz_done 2")
    try sim.perform("wait 10m")
    let log = SimulatorTests.text(sim)
    #expect(log.contains("Did quiz_done (1 in all)"), "\(log)")
    #expect(log.contains("Did quiz_done × 2 (3 in all)"))
    #expect(log.contains("★ Earned quizzer for 2026-05-04"))
    #expect(log.contains("★ Earned daily-calm for 2026-05-04 (+10 points)"))
    let view = sim.render(width: 100, height: 30, color: false)
    #expect(view.contains("Actions today/all: quiz_done 3/3"), "\(view)")
    #expect(view.contains("earned today · earned once (+10 points)"), "\(view)")
    try sim.perform("next day")
    try sim.perform("do quiz_done")
    let tomorrow = sim.render(width: 120, height: 30, color: false)
    #expect(tomorrow.contains("Actions today/all: quiz_done 1/4"), "\(tomorrow)")
    #expect(tomorrow.contains("1 of 3 times quiz_done today, resets at midnight · earned once"), "\(tomorrow)")
    #expect(try sim.perform("explain quizzer").contains("Earned once, for 2026-05-04"))
    #expect(Simulator.help.contains("do NAME"))
    #expect(Simulator.commandTable.contains("do NAME [COUNT]"))
  }

  /// A count that is not a whole number from 1 to 1,000,000, a missing name, and a name the
  /// rules spell in another case are refused with what to type; nothing is recorded.
  @Test func aBadActionIsRefusedWithWhatToType() throws {
    let dir = try SimulatorTests.pack(Self.pack)
    let sim = try SimulatorTests.sim(dir)
    defer { sim.close() }
    let cases = [
      ("do quiz_done 0", "the count is a whole number from 1 to 1000000, not '0'"),
      ("do quiz_done 2.5", "not '2.5'; write do quiz_done 3"),
      ("do quiz_done 1000001", "not '1000001'"),
      ("do", "do takes an action and a count"),
      (
        "do Quiz_Done 2",
        "the rules name the action 'quiz_done', not 'Quiz_Done' (action names are case-sensitive); "
          + "write do quiz_done 2"
      ),
    ]
    for (line, said) in cases {
      #expect(throws: Simulator.CommandError.self, "\(line)") { try sim.perform(line) }
      do {
        try sim.perform(line)
      } catch {
        #expect(error.message.contains(said), "\(line): \(error.message)")
      }
    }
    #expect(!sim.render(width: 100, height: 30, color: false).contains("Actions"), "nothing was recorded")
  }

  /// The live view in a real terminal shows the action counts and the earning.
  @Test(.enabled(if: TestEnvironment.hasTmux, "tmux runs the sim in a real pty; CI installs it"))
  func theLiveViewShowsActionsAndEarnings() throws {
    let dir = TemporaryStore()
    let rules = try CommandLineTests.write(Self.pack, to: dir, name: "r.lua")
    let tmux = SimTerminalTests.Tmux()
    try tmux([
      "new-session", "-d", "-s", "sim", "-x", "100", "-y", "30",
      "TMPDIR=\(dir.directory) \(SimTerminalTests.dwell) sim --rules \(rules) \(SimTerminalTests.fixed)",
    ])
    _ = try tmux.screen(waitingFor: "Dwell sim")
    try tmux(["send-keys", "-t", "sim", "do quiz_done 3", "Enter"])
    let screen = try tmux.screen(waitingFor: "Earned quizzer")
    #expect(screen.contains("Actions today/all: quiz_done 3/3"), "\(screen)")
    #expect(screen.contains("★ Earned quizzer for 2026-05-04"), "\(screen)")
    try tmux(["send-keys", "-t", "sim", "wait 10m", "Enter"])
    let later = try tmux.screen(waitingFor: "Earned daily-calm")
    #expect(later.contains("★ Earned daily-calm for 2026-05-04 (+10 points)"), "\(later)")
    #expect(later.contains("Points 10"), "\(later)")
    try tmux(["send-keys", "-t", "sim", "exit", "Enter"])
  }
}
