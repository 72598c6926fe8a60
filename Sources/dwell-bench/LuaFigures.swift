// dwell-bench's Lua figures: 100 scripted checks per tick of app time, reloading an
// edited pack, and the memory of a loaded pack.
import Dwell
import DwellLua
import DwellTesting
import Foundation

/// Measures the Lua figures; the reload and memory ones need the learning pack at `pack`,
/// copied into `scratch` and edited there.
@MainActor func luaFigures(quick: Bool, pack packPath: String, scratch directory: URL) throws {
  log("lua...")
  let checks = (0..<100).map {
    "unlock \"check-\($0)\" { check = function(u) return u.app.seconds < 0 and u.screen(\"Screen\($0 % 50)\").visits > 1e9 end }"
  }
  .joined(separator: "\n")
  let checkPack = try LuaRulePack(scripts: [("checks.lua", checks)])
  let luaClock = ManualClock()
  // Checkpoints (every 2 s of use) are the writer's cost, measured above, not the checks':
  // they are pushed out of the measured ticks.
  let luaEngine = try Engine(
    store: Store(path: ":memory:"), configuration: .init(checkpointInterval: .seconds(3600), rules: checkPack.rules),
    clock: luaClock,
    wallClock: ManualWallClock(clock: luaClock), scheduler: luaClock)
  luaEngine.record(.active)
  let tick = measure(samples: quick ? 200 : 2000) { luaClock.advance(by: .seconds(1)) }.median
  report("lua_checks_100_ns", tick, target: "≤ 20000", pass: tick <= 20_000)

  if FileManager.default.fileExists(atPath: packPath) {
    let copy = directory.appendingPathComponent("pack")
    try? FileManager.default.copyItem(atPath: packPath, toPath: copy.path)
    let reloadClock = ManualClock()
    let inForce = try RulesInForce(RuleSet(pack: try LuaRulePack(contentsOf: copy.path)))
    let reloadEngine = try Engine(
      store: Store(path: ":memory:"), configuration: inForce.launchConfiguration(base: .init()),
      clock: reloadClock, wallClock: ManualWallClock(clock: reloadClock), scheduler: reloadClock)
    let watcher = RuleWatcher(path: copy.path) { result in
      if case .success(let source) = result, (try? inForce.change { $0.pack = source.pack }) != nil {
        inForce.apply(to: reloadEngine)
      }
    }
    var reloads: [Double] = []
    for round in 0..<(quick ? 3 : 20) {
      let file = copy.appendingPathComponent("unlocks.lua")
      let text = (try? String(contentsOfFile: file.path, encoding: .utf8)) ?? ""
      try (text + "\n-- edit \(round)\n").write(to: file, atomically: true, encoding: .utf8)
      let start = now()
      watcher.checkNow()
      reloads.append(Double(now() - start) / 1e6)
    }
    reloads.sort()
    let reload = reloads[reloads.count / 2]
    report("lua_reload_ms", reload, "ms", target: "≤ 50", pass: reload <= 50)
    let state = Double(try LuaRulePack(contentsOf: copy.path).memoryInUse) / 1024
    report("lua_state_kb", state, "KiB", target: "≤ 512", pass: state <= 512)
  }
}
