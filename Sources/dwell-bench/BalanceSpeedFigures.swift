// dwell-bench's designer-speed figures: tick plugins against declarative rules, a pack of 20,000 tiers, 40,000 rules in a row.
import Dwell
import DwellBalance
import DwellLua
import DwellTesting
import Foundation

/// `dwell balance` of the meditation fixtures (five tick plugins, and the same pack written
/// declaratively), of a pack of 20,000 tiers with a plugin (loaded once per run), and a
/// 17-minute trace through 40,000 declarative rules unlocking one after another.
@MainActor func balanceSpeedFigures(quick: Bool, packs: String, scratch: URL) throws {
  let fixtures = URL(fileURLWithPath: packs).deletingLastPathComponent().appendingPathComponent("Tests/Fixtures").path
  let personas = try PersonaFile.load(fixtures + "/meditation/balance/personas.lua")
  let plugins = try BalancePack(path: fixtures + "/meditation")
  let declarative = try BalancePack(path: fixtures + "/meditation-declarative")
  var runs: [(String, BalancePack, Int, Int, Double?)] = [
    ("meditation_plugins", plugins, 200, 30, 6), ("meditation_decl", declarative, 200, 30, nil),
  ]
  if quick {
    runs = [("meditation_plugins", plugins, 10, 7, nil), ("meditation_decl", declarative, 10, 7, nil)]
  } else {
    runs.append(("meditation_plugins", plugins, 1000, 30, 30))
  }
  for (name, pack, users, days, target) in runs {
    try timedBalance(name, pack, personas, users: users, days: days, target: target)
  }
  try tierFigures(quick: quick, personas: personas, scratch: scratch)
  try manyRuleFigures(quick: quick, scratch: scratch)
}

/// Runs `pack` for `users` × `days` and reports its wall time (against `target`, in seconds)
/// and its CPU time over every worker.
@MainActor private func timedBalance(
  _ name: String, _ pack: BalancePack, _ personas: Population, users: Int, days: Int, target: Double?
) throws {
  let cores = ProcessInfo.processInfo.activeProcessorCount
  log("balance: \(name), \(users) users x \(days) days on \(cores) cores...")
  let (seconds, cpu) = try timed(BalanceRun(pack: pack, population: personas, users: users, days: days, seed: 1))
  report(
    "balance_\(name)_\(users)x\(days)_s", seconds, "s", target: target.map { "≤ \(Int($0))" },
    pass: target.map { seconds <= $0 })
  report("balance_\(name)_\(users)x\(days)_cpu_s", cpu, "s")
}

/// A pack of 1,000 achievements of 20 tiers each and a plugin (so each user needs a fresh
/// Lua state): the tiers are parsed once per run, not once per user.
@MainActor private func tierFigures(quick: Bool, personas: Population, scratch: URL) throws {
  let directory = scratch.appendingPathComponent("tiers")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  let text = """
    for a = 1, 1000 do
      local tiers = {}
      for i = 1, 20 do tiers[i] = { "t" .. i, when = { screen = "Meditate", seconds = (a * 20 + i) * 7 }, points = 1 } end
      achievement("grind" .. a) { title = "Grind", tiers = tiers }
    end
    local p = plugin "count"
    p.on("session_start", function(u) p.state.n = (p.state.n or 0) + 1 end)
    """
  try text.write(to: directory.appendingPathComponent("rules.lua"), atomically: true, encoding: .utf8)
  let start = now()
  let pack = try BalancePack(path: directory.path)
  report("balance_tiers20000_load_s", Double(now() - start) / 1e9, "s")
  try timedBalance(
    "tiers20000", pack, personas, users: quick ? 10 : 200, days: quick ? 3 : 30, target: nil)
}

/// 40,000 rules on app time, one unlocking every 25 ms of use, through a 17-minute trace:
/// in memory (as `dwell balance` runs users) and through `dwell replay`'s store.
@MainActor private func manyRuleFigures(quick: Bool, scratch: URL) throws {
  let count = quick ? 4_000 : 40_000
  log("rules: \(count) declarative rules in a row through a 17-minute trace...")
  let pack = try LuaRulePack(
    scripts: [("many.lua", "for i = 1, \(count) do unlock(\"r\" .. i) { when = { appSeconds = i * 0.025 } } end")])
  let configuration = try RuleSet(pack: pack).validated(base: Engine.Configuration())
  var lines = [
    #"{"t":0,"event":"launch","wall":"2026-05-04T08:00:00Z","tz":"UTC"}"#,
    #"{"t":0.1,"event":"appear","screen":"Home","id":"s0"}"#, #"{"t":0.2,"event":"active"}"#,
  ]
  let screens = ["Home", "Lessons", "Quiz"]
  for n in 1...34 {
    let t = 0.2 + Double(n) * 30
    lines.append(#"{"t":\#(t),"event":"appear","screen":"\#(screens[n % 3])","id":"s\#(n)"}"#)
    lines.append(#"{"t":\#(t + 0.05),"event":"disappear","id":"s\#(n - 1)"}"#)
  }
  lines.append(#"{"t":1021,"event":"background"}"#)
  let trace = try TraceParser.parse(lines.joined(separator: "\n") + "\n")
  var start = now()
  let run = try UserRun.replay(trace, configuration: configuration)
  report("rules_\(count)_in_a_row_memory_s", Double(now() - start) / 1e9, "s")
  report("rules_\(count)_in_a_row_unlocked", Double(run.engine?.report().unlocks.count ?? 0), "rules")
  start = now()
  _ = try Replayer(storePath: scratch.appendingPathComponent("many.sqlite").path, configuration: configuration).run(
    trace)
  report("rules_\(count)_in_a_row_sqlite_s", Double(now() - start) / 1e9, "s")
}
