internal import Dwell
internal import DwellLua
internal import DwellTesting
internal import Foundation

/// Time fuzzing for `dwell test PACK --fuzz N`: N random traces of the pack's screens, with
/// clock jumps, travel across time zones, DST changes, crashes and long gaps, each run in a
/// fresh simulator and checked against the ``Invariants`` every pack keeps. The first trace
/// that breaks one is shrunk (steps dropped, waits shortened, while it still breaks one)
/// to a short scenario that `dwell test` runs.
///
/// The same pack, screens and seed give the same traces and the same result. A trace is
/// at most ``Options/steps`` commands, each bounded (a wait with the app active at most
/// 30 minutes, a gap with it away at most 4 days, a skip at most 40 days, a clock jump at
/// most 2 days); shrinking runs at most ``Options/shrinkRuns`` candidate traces.
///
/// ```swift
/// let result = try Fuzzer.run(pack: "rules/learning", options: .init(traces: 200, seed: 7))
/// if let failure = result.failure { print(failure.scenario) }
/// ```
package struct Fuzzer {
  /// What to run.
  package struct Options: Sendable {
    /// How many traces.
    package var traces: Int
    /// The seed: trace `i` is made from it and `i` alone.
    package var seed: UInt64
    /// Screens to visit besides those the pack's rules name (a persona file's, say).
    package var screens: [String] = []
    /// Commands in one trace, at most.
    package var steps = 30
    /// Candidate traces shrinking runs, at most.
    package var shrinkRuns = 400

    /// Creates options.
    package init(traces: Int, seed: UInt64, screens: [String] = []) {
      self.traces = traces
      self.seed = seed
      self.screens = screens
    }
  }

  /// A trace that broke an invariant, shrunk.
  package struct Failure: Sendable {
    /// Which trace (0-based) of the run.
    package var trace: Int
    /// The invariant broken, in words (of the shrunk trace).
    package var breach: String
    /// Commands in the trace as generated, and once shrunk.
    package var originalSteps: Int
    package var steps: Int
    /// The shrunk trace as a scenario file's text: it ends in `expect invariants`.
    package var scenario: String
  }

  /// What a run did.
  package struct Result: Sendable {
    /// Traces run (all of them, or up to the first that failed).
    package var traces: Int
    /// Commands run in all, and unlocks and earnings checked.
    package var commands: Int
    package var unlocks: Int
    /// The first failure, shrunk; `nil` when every trace kept every invariant.
    package var failure: Failure?
  }

  /// One trace: where and when it starts, and its commands.
  struct Script: Sendable {
    var start: String
    var zone: String
    var steps: [String]

    /// The trace as a scenario file, with a comment saying what it shows.
    func scenario(comment: [String]) -> String {
      let lines = comment.map { "# " + $0 } + ["@start \(start)", "@tz \(zone)"] + steps + ["expect invariants"]
      return lines.joined(separator: "\n") + "\n"
    }
  }

  /// A new store path for a run: in memory (`/dev/shm`) where there is one, since these
  /// stores are thrown away and a disk's syncs would take most of a run's time.
  static func scratchStore() -> String {
    let memory = "/dev/shm"
    let folder =
      FileManager.default.isWritableFile(atPath: memory) ? memory : FileManager.default.temporaryDirectory.path
    return folder + "/dwell-fuzz-\(UUID().uuidString).sqlite"
  }

  let pack: String
  let options: Options
  let screens: [String]

  /// Runs `options.traces` traces against the rules at `pack`, stopping at the first that
  /// breaks an invariant, which is shrunk.
  ///
  /// - Throws: ``Simulator/CommandError`` when the pack does not load.
  package static func run(pack: String, options: Options) throws(Simulator.CommandError) -> Result {
    let source: RuleSource
    do {
      source = try RuleSource.load(pack)
    } catch {
      throw .init("the rules do not load: \(error)")
    }
    let named = source.rules.flatMap(\.condition.screens) + options.screens.map(ScreenName.clean)
    var screens: [String] = []
    for name in named where !name.isEmpty && !screens.contains(name) { screens.append(name) }
    if screens.isEmpty { screens = ["Home"] }
    return try Fuzzer(pack: pack, options: options, screens: screens).run()
  }

  private func run() throws(Simulator.CommandError) -> Result {
    var result = Result(traces: 0, commands: 0, unlocks: 0, failure: nil)
    for index in 0..<max(0, options.traces) {
      var random = SeededGenerator(seed: options.seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
      let outcome = try generate(&random)
      result.traces += 1
      result.commands += outcome.script.steps.count
      result.unlocks += outcome.unlocks
      guard let breach = outcome.breach else { continue }
      let shrunk = shrink(outcome.script, breach: breach)
      let comment = [
        "Found by dwell test --fuzz (seed \(options.seed), trace \(index + 1)), shrunk from "
          + "\(outcome.script.steps.count) to \(shrunk.script.steps.count) command\(shrunk.script.steps.count == 1 ? "" : "s").",
        "It breaks an invariant every pack keeps: \(shrunk.breach)",
      ]
      result.failure = Failure(
        trace: index, breach: shrunk.breach, originalSteps: outcome.script.steps.count,
        steps: shrunk.script.steps.count, scenario: shrunk.script.scenario(comment: comment))
      break
    }
    return result
  }

  /// What running a script gave: the commands that ran, the invariant broken, unlocks seen.
  struct Outcome {
    var script: Script
    var breach: String?
    var unlocks: Int
  }

  /// Runs `script` in a fresh simulator; commands that do not run there (a `back` with no
  /// screen left, once shrinking dropped the `open`) are left out of the outcome's script.
  func run(_ script: Script) throws(Simulator.CommandError) -> Outcome {
    try simulate(script) { sim, ran in
      for step in script.steps where (try? sim.perform(step)) != nil { ran.append(step) }
    }
  }

  /// Runs a fresh simulator for `script`'s start and zone, `body` performing its commands
  /// (appending those that ran), then checks the invariants.
  func simulate(
    _ script: Script, _ body: (Simulator, inout [String]) -> Void
  ) throws(Simulator.CommandError) -> Outcome {
    let zone = try TimeZoneName.zone(script.zone)
    let store = Self.scratchStore()
    defer { Store.removeFiles(at: store) }
    var simOptions = Simulator.Options(rulesPath: pack, storePath: store, timeZone: zone)
    guard let start = Simulator.parseStart(script.start, zone: zone) else {
      throw .init("@start \(script.start) is not a start")
    }
    simOptions.start = start
    let sim: Simulator
    do {
      sim = try Simulator(options: simOptions)
    } catch {
      throw .init("\(error)")
    }
    defer { sim.close() }
    var ran: [String] = []
    body(sim, &ran)
    let breach = sim.lock.withLock { Invariants.breach(in: sim) }
    let unlocks = sim.logLock.withLock { sim.announcements.count }
    return Outcome(script: Script(start: script.start, zone: script.zone, steps: ran), breach: breach, unlocks: unlocks)
  }
}
