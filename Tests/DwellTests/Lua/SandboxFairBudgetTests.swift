import Testing

// The pack's budget per tick: running out of it disables what overspent its share, never an honest neighbour.
@testable import Dwell
@testable import DwellLua

@Suite struct SandboxFairBudgetTests {
  /// Twelve heavy checks (each well within a call's allowance) and one cheap honest check,
  /// due two minutes in, declared last so it runs last each time the rules are evaluated.
  static let heavy = "check = function(u) local n = 0 for i = 1, 40000 do n = n + i end return false end"
  static let cheap = "check = function(u) local n = 0 for i = 1, 2000 do n = n + i end return u.app.seconds >= 120 end"
  static let scripts = [
    (
      "rules.lua",
      (1...12).map { "unlock \"heavy-\($0)\" { \(heavy) }\n" }.joined() + "unlock \"ok-good\" { \(cheap) }"
    )
  ]

  /// The work each check does in one evaluation, measured on the same pack with room to spare.
  static func costs() throws -> [String: Int64] {
    let pack = try LuaRulePack(
      scripts: scripts, limits: ScriptLimits(instructionsPerCall: 100_000_000, instructionsPerTick: 1_000_000_000))
    let rig = Rig(configuration: .init(rules: pack.rules))
    let engine = try rig.launch()
    engine.record(.active)
    return pack.runtime.box.withLock { $0.costs }
  }

  @Test func runningOutOfTheTicksBudgetDisablesTheChecksThatOverspentNotTheHonestOne() throws {
    let costs = try Self.costs()
    let heavy = try #require(costs["heavy-1"])
    let cheap = try #require(costs["ok-good"])
    #expect(heavy > 10 * cheap && cheap >= 2000, "\(costs)")
    // A busy second: the rules are evaluated twice. The pack's budget for the tick runs out
    // in ok-good's second call, with half of what it needs left; every heavy check spent
    // twice a call in this tick, more than its share (the tick's budget / 13).
    let perTick = 24 * heavy + cheap + cheap / 2
    let limits = ScriptLimits(instructionsPerCall: 1_000_000, instructionsPerTick: Int(perTick))
    let pack = try LuaRulePack(scripts: Self.scripts, limits: limits)
    let rig = Rig(configuration: .init(rules: pack.rules))
    let engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "S", id: .init("s")))
    let disabled = pack.runtime.box.withLock { $0.disabled }
    #expect(disabled == Set((1...12).map { "heavy-\($0)" }), "\(pack.diagnostics)")
    rig.advance(150)
    #expect(engine.report().unlocks["ok-good"] != nil, "\(pack.diagnostics)")
    let named = pack.diagnostics.filter { $0.description.contains("ok-good") }
    #expect(named.isEmpty, "\(named)")
  }
}
