import Dwell
import DwellTesting
import Foundation
import Testing

@testable import DwellHarness

/// `dwell test PACK --fuzz N`: the sample packs keep every invariant over random traces
/// (40 here, where the suite also runs under the sanitizers; CI runs 200 on the release build); a pack whose plugin unlocks a rule before its condition holds is caught, shrunk
/// to a short scenario that `dwell test` runs and fails, and that passes once the pack is
/// fixed; the same seed gives the same scenario; a double announcement and a replay that
/// differs (faults put in by hand) are breaches too.
@Suite struct FuzzerTests {
  static let rules = TestPaths.packageRoot.appendingPathComponent("rules").path

  /// 200 traces of a pack with tick plugins or checks take a minute or more on a busy machine,
  /// many more under a sanitizer: the suite runs 40, `.ci/run` 200 with the release build.
  @Test(arguments: ["learning", "game", "reading"])
  func theSamplePacksKeepEveryInvariant(pack: String) throws {
    let arguments = ["test", Self.rules + "/" + pack, "--fuzz", "40", "--seed", "26"]
    let run = try Subprocess.run(CommandLineTests.binary.path, arguments, timeout: .seconds(900))
    #expect(!run.timedOut)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.hasPrefix("PASS  40 fuzz traces (seed 26): "), "\(run.stdout)")
    #expect(!run.stdout.contains(" 0 unlocks"), "the traces unlock nothing: they test nothing")
  }

  /// The learning pack's unlocks with a plugin that unlocks `bonus-level` (30 minutes in
  /// Lessons) as soon as Lessons opens: the engine refuses a second unlock of a rule, so
  /// the breach a plugin can make is unlocking one before its condition holds.
  static func brokenPack() throws -> TemporaryStore {
    let dir = TemporaryStore()
    try FileManager.default.copyItem(atPath: rules + "/learning/unlocks.lua", toPath: dir.directory + "/unlocks.lua")
    let plugin = """
      local early = plugin "early"
      early.on("screen_enter", function(u, screen)
        if screen == "Lessons" then early.unlock("bonus-level") end
      end)
      """
    try plugin.write(toFile: dir.directory + "/early.lua", atomically: true, encoding: .utf8)
    return dir
  }

  @Test func aPluginThatUnlocksEarlyIsCaughtAndShrunk() throws {
    let dir = try Self.brokenPack()
    let run = try CommandLineTests.dwell(["test", dir.directory, "--fuzz", "50", "--seed", "7"])
    #expect(run.status == 1)
    #expect(run.stdout.contains("FAIL  fuzz trace "), "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("rule 'bonus-level' unlocked at "))
    #expect(run.stdout.contains("before its condition held"))
    let tests = try FileManager.default.contentsOfDirectory(atPath: dir.directory + "/tests")
    let name = try #require(tests.first { $0.hasPrefix("fuzz-7-") && $0.hasSuffix(".scenario") })
    let scenario = try String(contentsOfFile: dir.directory + "/tests/" + name, encoding: .utf8)
    let commands = scenario.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("@") }
    // Shrunk to opening Lessons (a launch or tab at most besides) and the check.
    #expect(commands.count <= 3, "\(scenario)")
    #expect(commands.last == "expect invariants")
    #expect(commands.contains { $0.hasSuffix(" Lessons") })

    // The scenario is one `dwell test` runs, and it fails there with the same breach...
    let again = try CommandLineTests.dwell(["test", dir.directory])
    #expect(again.status == 1)
    #expect(again.stdout.contains("FAIL  \((name as NSString).deletingPathExtension)"), "\(again.stdout)")
    #expect(again.stdout.contains("before its condition held"))
    // ...and passes once the plugin is gone.
    try FileManager.default.removeItem(atPath: dir.directory + "/early.lua")
    let fixed = try CommandLineTests.dwell(["test", dir.directory])
    #expect(fixed.status == 0, "\(fixed.stdout)")
  }

  @Test func theSameSeedGivesTheSameTracesAndScenario() throws {
    let dir = try Self.brokenPack()
    let options = Fuzzer.Options(traces: 20, seed: 99)
    let first = try Fuzzer.run(pack: dir.directory, options: options)
    let second = try Fuzzer.run(pack: dir.directory, options: options)
    let failure = try #require(first.failure)
    #expect(failure.scenario == second.failure?.scenario)
    #expect(first.commands == second.commands)
    #expect(failure.steps < failure.originalSteps || failure.originalSteps <= 2)
    let other = try Fuzzer.run(pack: Self.rules + "/game", options: .init(traces: 20, seed: 100))
    let same = try Fuzzer.run(pack: Self.rules + "/game", options: .init(traces: 20, seed: 100))
    #expect(other.commands == same.commands && other.unlocks == same.unlocks)
  }

  /// The engine refuses a second unlock and `dwell replay` agrees with the simulator on
  /// every sample pack, so these two invariants are shown breaking by a fault put in by
  /// hand: an announcement made twice, and a recorded trace with visits the run never had.
  @Test func aDoubleAnnouncementAndAReplayThatDiffersAreBreaches() throws {
    let zone = try #require(TimeZone(identifier: "UTC"))
    var options = Simulator.Options(rulesPath: Self.rules + "/learning", timeZone: zone)
    options.start = try #require(Simulator.parseStart("2026-05-04 09:00", zone: zone))
    let sim = try Simulator(options: options)
    defer { sim.close() }
    try sim.perform("open Lessons")
    try sim.perform("wait 1m")
    #expect(sim.lock.withLock { Invariants.breach(in: sim) } == nil)
    let once = sim.logLock.withLock { sim.announcements }
    #expect(once.map(\.rule) == ["first-lesson"])

    sim.logLock.withLock { sim.announcements += once }
    let twice = sim.lock.withLock { Invariants.breach(in: sim) }
    #expect(twice == "rule 'first-lesson' unlocked twice (again at 2026-05-04 09:00:00)")

    sim.logLock.withLock { sim.announcements = once }
    sim.lock.withLock {
      let t = sim.clock.now()
      for index in 0..<5 {
        sim.trace.append(.init(line: sim.trace.count + 1, t: t, kind: .appear(screen: "Quiz", id: "q\(index)")))
        sim.trace.append(.init(line: sim.trace.count + 1, t: t, kind: .disappear(id: "q\(index)")))
      }
    }
    let differs = try #require(sim.lock.withLock { Invariants.breach(in: sim) })
    #expect(differs.hasPrefix("dwell replay of the recorded trace gives other unlocks"), "\(differs)")
    #expect(differs.contains("only the replay: quiz-master-mode at 2026-05-04 09:01:00"), "\(differs)")
  }

  @Test func shrinkingHalvesWaitsSkipsAndClockJumps() {
    #expect(Fuzzer.shortened("wait 10m") == "wait 5m")
    #expect(Fuzzer.shortened("wait 3s") == "wait 1s")
    #expect(Fuzzer.shortened("wait 1s") == nil)
    #expect(Fuzzer.shortened("skip 9 days") == "skip 4 days")
    #expect(Fuzzer.shortened("clock -2h") == "clock -1h")
    #expect(Fuzzer.shortened("open Lessons") == nil)
  }
}
