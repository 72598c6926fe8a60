// Plugins in the simulator: their progress in `rules` and `explain`, `state PLUGIN`, the
// scenario expectations on state and published values, and a reload that changed a
// plugin's code (keep or reset its state) or a rule's definition after it unlocked.
import Dwell
import DwellHarness
import Foundation
import Testing

@Suite struct SimPluginTests {
  static let pack = """
    unlock "ten-sits" { title = "Ten sits", when = { sessions = 1000000 } }
    local sits = plugin "sits"
    sits.on("screen_enter", function(u, screen)
      sits.state.n = (sits.state.n or 0) + 1
      sits.publish("label", sits.state.n .. " sits")
      sits.progress("ten-sits", sits.state.n / 10, sits.state.n .. " of 10 sits")
    end)
    """

  static func write(_ text: String, _ dir: TemporaryStore) throws {
    try text.write(toFile: dir.directory + "/pack.lua", atomically: true, encoding: .utf8)
  }

  static func sim(_ text: String) throws -> (Simulator, TemporaryStore) {
    let dir = try SimulatorTests.pack(text)
    return (try SimulatorTests.sim(dir), dir)
  }

  @Test func aPluginsProgressShowsInRulesAndExplain() throws {
    let (sim, _) = try Self.sim(Self.pack)
    for screen in ["Sit", "Home", "Sit"] { try sim.perform("open \(screen)") }
    #expect(try sim.perform("rules").contains("3 of 10 sits"))
    let explained = try sim.perform("explain ten-sits")
    #expect(explained.contains("Not unlocked yet: 3 of 10 sits."))
    #expect(explained.contains("Still needed: the plugin reports 30%."))
  }

  @Test func stateShowsAPluginsStateAndPublishedValues() throws {
    let (sim, _) = try Self.sim(Self.pack)
    try sim.perform("open Sit")
    try sim.perform("open Home")
    let shown = try sim.perform("state sits")
    #expect(shown.contains("state.n = 2"))
    #expect(shown.contains("published label = \"2 sits\""))
    #expect(try sim.perform("state").contains("Plugins: sits"))
    #expect(throws: Simulator.CommandError.self) { try sim.perform("state sitz") }
  }

  @Test func scenariosExpectStateAndPublishedValues() throws {
    let dir = try SimulatorTests.pack(Self.pack)
    try FileManager.default.createDirectory(atPath: dir.directory + "/tests", withIntermediateDirectories: true)
    let scenario = """
      open Sit
      open Home
      expect state sits.n = 2
      expect published sits.label = "2 sits"
      expect state sits.n = 3
      """
    try scenario.write(toFile: dir.directory + "/tests/s.scenario", atomically: true, encoding: .utf8)
    let result = try #require(ScenarioRunner.run(pack: dir.directory).first)
    #expect(result.passed == 2)
    #expect(result.failure?.line.hasSuffix("s.scenario:5: expect state sits.n = 3") == true)
    #expect(result.failure?.seen == "2")
  }

  /// The plugin's state layout changes (a number becomes a table): the reload says so, the
  /// old state breaks the new code, and `state sits reset` mends it without losing time.
  @Test func aChangedPluginKeepsOrResetsItsStateWithoutLosingTheSession() throws {
    let (sim, dir) = try Self.sim(Self.pack)
    try sim.perform("open Sit")
    try sim.perform("wait 10m")
    let changed = Self.pack.replacingOccurrences(
      of: "sits.state.n = (sits.state.n or 0) + 1",
      with: "sits.state.n = { count = ((sits.state.n or {}).count or 0) + 1 }"
    ).replacingOccurrences(of: "sits.state.n .. \" sits\"", with: "sits.state.n.count .. \" sits\"")
      .replacingOccurrences(
        of: "sits.state.n / 10, sits.state.n ..", with: "sits.state.n.count / 10, sits.state.n.count ..")
    try Self.write(changed, dir)
    try sim.perform("reload")
    let log = SimulatorTests.text(sim)
    #expect(log.contains("Plugin 'sits' changed (pack.lua): it keeps its state; 'state sits reset' starts it afresh"))
    try sim.perform("open Home")
    #expect(SimulatorTests.text(sim).contains("Script error"))  // the old number breaks the new code
    #expect(try sim.perform("state sits reset").contains("starts with an empty state"))
    try sim.perform("open Sit")
    #expect(try sim.perform("state sits").contains("state.n = {\"count\":1}"))
    let status = try sim.perform("status")
    #expect(status.contains("t=600s"), "\(status)")  // the session went on
  }

  @Test func explainMarksARuleUnlockedUnderAnEarlierVersion() throws {
    let rule = #"unlock "calm" { when = { screen = "Sit", seconds = minutes(30) } }"#
    let (sim, dir) = try Self.sim(rule)
    try sim.perform("open Sit")
    try sim.perform("wait 31m")
    try Self.write(rule.replacingOccurrences(of: "minutes(30)", with: "minutes(45)"), dir)
    try sim.perform("reload")
    let explained = try sim.perform("explain calm")
    #expect(
      explained.contains("Unlocked under an earlier version: then 30 min in Sit, now 45 min in Sit."), "\(explained)")
    // Started again (`reset`), it unlocks under the version in force: no note.
    try sim.perform("reset")
    try sim.perform("open Sit")
    try sim.perform("wait 46m")
    let again = try sim.perform("explain calm")
    #expect(again.contains("Unlocked at"), "\(again)")
    #expect(!again.contains("earlier version"), "\(again)")
  }

  /// In a real terminal: the live view shows the plugin's progress, `state` answers, and a
  /// saved change to the plugin's code is announced with the command that resets it.
  @Test(.enabled(if: TestEnvironment.hasTmux, "tmux runs the sim in a real pty; CI installs it"))
  func theLiveViewShowsPluginsAndAChangedPlugin() throws {
    let dir = TemporaryStore()
    let rules = try CommandLineTests.write(Self.pack, to: dir, name: "sits.lua")
    let tmux = SimTerminalTests.Tmux()
    try tmux([
      "new-session", "-d", "-s", "sim", "-x", "100", "-y", "30",
      "TMPDIR=\(dir.directory) \(SimTerminalTests.dwell) sim --rules \(rules) \(SimTerminalTests.fixed)",
    ])
    _ = try tmux.screen(waitingFor: "Dwell sim")
    try tmux(["send-keys", "-t", "sim", "open Sit", "Enter"])
    #expect(try tmux.screen(waitingFor: "1 of 10 sits").contains("1 of 10 sits"))
    try tmux(["send-keys", "-t", "sim", "state sits", "Enter"])
    #expect(try tmux.screen(waitingFor: "state.n = 1").contains("published label = \"1 sits\""))
    try (Self.pack + "\n-- edited\n").write(toFile: rules, atomically: true, encoding: .utf8)
    let changed = try tmux.screen(waitingFor: "'state sits reset'")
    #expect(changed.contains("Plugin 'sits' changed (sits.lua)"), "\(changed)")
    try tmux(["send-keys", "-t", "sim", "state sits reset", "Enter"])
    #expect(try tmux.screen(waitingFor: "starts with an empty state").contains("starts with an empty state"))
    try tmux(["send-keys", "-t", "sim", "exit", "Enter"])
  }
}
