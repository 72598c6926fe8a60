// dwell-bench's simulation figures: the engine in memory against replay on SQLite, and `dwell balance` at scale.
import Dwell
import DwellBalance
import DwellTesting
import Foundation

/// A heavy user for a year: six sessions a day, a touch every few seconds.
let heavyPersona = """
  local screens = {
    Home = { stay = lognormal(20, 0.5), next = { Lessons = 3, Quiz = 1 } },
    Lessons = { stay = lognormal(120, 0.6), next = { Home = 1, Quiz = 1, Lessons = 2 } },
    Quiz = { stay = uniform(30, 90), next = { Home = 1, Lessons = 1 } },
  }
  persona "heavy" { daily = 0.95, comeback = 0.9, sessions = poisson(6), sessionLength = lognormal(minutes(15), 0.4),
                    touches = lognormal(4, 0.5), screens = screens, start = "Home", churn = 0 }
  """

/// One half of the simulation figures.
enum SimulationPart: String {
  /// The engine in memory and on SQLite, in events per second.
  case events
  /// `dwell balance` of the learning pack and of a declarative pack.
  case balance
}

/// The simulation figures (or one `only` part of them), reported through `report`.
@MainActor func simulationFigures(quick: Bool, packs: String, scratch: URL, only: SimulationPart? = nil) throws {
  if only != .balance { try eventFigures(quick: quick, packs: packs, scratch: scratch) }
  if only != .events {
    try balanceFigures(quick: quick, packs: packs)
    try balanceSpeedFigures(quick: quick, packs: packs, scratch: scratch)
  }
  let peak = peakMiB()
  report("balance_peak_rss_mb", peak, "MiB", target: "≤ 256", pass: peak <= 256)
}

/// The same generated year, in memory and through `dwell replay`'s SQLite store.
@MainActor private func eventFigures(quick: Bool, packs: String, scratch: URL) throws {
  log("simulation: a year in memory and on SQLite...")
  let heavy = try PersonaFile.parse(heavyPersona, file: "heavy.lua")
  let declarative = try BalancePack(path: packs + "/learning/unlocks.lua")
  let year = BalanceRun(pack: declarative, population: heavy, users: 1, days: quick ? 30 : 365, seed: 7)
  let trace = year.trace(user: 0)
  let configuration = try declarative.configuration(base: Engine.Configuration())
  var best = Double.infinity
  for _ in 0..<(quick ? 1 : 5) {
    let start = now()
    _ = try UserRun.replay(trace, configuration: configuration)
    best = min(best, Double(now() - start) / 1e9)
  }
  let memoryRate = Double(trace.count) / best
  report("sim_events_per_s", memoryRate, "events/s", target: "≥ 1000000", pass: memoryRate >= 1_000_000)
  let replayStart = now()
  _ = try Replayer(storePath: scratch.appendingPathComponent("year.sqlite").path, configuration: configuration).run(
    trace)
  let replayRate = Double(trace.count) / (Double(now() - replayStart) / 1e9)
  report("sim_replay_sqlite_events_per_s", replayRate, "events/s")
  report("sim_trace_events", Double(trace.count), "events")
}

/// Runs `run` and gives its wall time and its CPU time over every worker, in seconds: on a
/// machine shared with other work the wall time follows the load; CPU time ÷ cores is what
/// the run takes on free cores.
@MainActor func timed(_ run: BalanceRun) throws -> (seconds: Double, cpu: Double) {
  let start = now()
  let cpuStart = cpuSeconds()
  _ = try run.runBlocking()
  return (Double(now() - start) / 1e9, cpuSeconds() - cpuStart)
}

/// The learning pack (a scripted check, a tick plugin) and a declarative pack at scale.
@MainActor private func balanceFigures(quick: Bool, packs: String) throws {
  let personas = try PersonaFile.load(packs + "/learning/balance/personas.lua")
  let learning = try BalancePack(path: packs + "/learning")
  let declarative = try BalancePack(path: packs + "/learning/unlocks.lua")
  let cores = ProcessInfo.processInfo.activeProcessorCount
  for (name, pack, users, target) in [
    ("learning", learning, quick ? 40 : 1000, 30.0), ("decl", declarative, quick ? 400 : 10_000, 20.0),
  ] {
    log("balance: \(name), \(users) users x 90 days on \(cores) cores...")
    let days = quick ? 14 : 90
    let (seconds, cpu) = try timed(BalanceRun(pack: pack, population: personas, users: users, days: days, seed: 1))
    report("balance_\(name)_users_per_s", Double(users) / seconds, "users/s")
    report(
      "balance_\(name)_\(users)x\(days)_s", seconds, "s", target: quick ? nil : "< \(Int(target))",
      pass: quick ? nil : seconds < target)
    report("balance_\(name)_\(users)x\(days)_cpu_s", cpu, "s")
  }
}
