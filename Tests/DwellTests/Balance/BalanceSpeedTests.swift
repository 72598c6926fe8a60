import DwellTesting
import Foundation
import Testing

// `dwell balance` made faster gives the same figures: the meditation pack's five tick plugins
// against a run the code before the change stored, and a pack reinstalled per user against
// one loaded in full per user.
@testable import Dwell
@testable import DwellBalance
@testable import DwellLua

@Suite struct BalanceSpeedTests {
  static let meditation = TestPaths.packageRoot.path + "/Tests/Fixtures/meditation"

  /// The report as JSON, without the pack's path (the stored run names it relative).
  static func figures(_ report: BalanceReport) -> JSONValue {
    guard case .object(let members) = report.json else { return report.json }
    return .object(members.filter { $0.key != "pack" })
  }

  /// `seed1-8x14.json` is `dwell balance Tests/Fixtures/meditation --users 8 --days 14 --json`
  /// as printed by the code before the tick path and the reinstall per user changed
  /// (8e484dc, the economy figures included): every figure, plugin points and notifications
  /// included, stays the same.
  @Test func theTickPluginPackGivesTheStoredRun() async throws {
    let population = try PersonaFile.load(Self.meditation + "/balance/personas.lua")
    let pack = try BalancePack(path: Self.meditation)
    let run = BalanceRun(pack: pack, population: population, users: 8, days: 14, seed: 1, threads: 2)
    let report = BalanceReport(stats: try await run.run(), pack: pack, population: population, seed: 1)
    let stored = try JSONParser.parse(
      String(contentsOfFile: Self.meditation + "/balance/seed1-8x14.json", encoding: .utf8))
    guard case .object(let members) = stored else { throw RuleError("the stored run is not an object") }
    let expected = JSONValue.object(members.filter { $0.key != "pack" })
    #expect(Self.figures(report).rendered(pretty: true) == expected.rendered(pretty: true))
  }

  /// A pack with checks (an unlock's, tiers' and one beside declarative tiers), plugins
  /// whose handlers count in upvalues, levels, and a definition that fails inside a `pcall`.
  static let checks = """
    levels { { "Low", 0 }, { "High", 40 } }
    local calls = 0
    unlock "counted" { check = function(u) local _ = u.app.seconds; calls = calls + 1; return calls >= 200 end }
    achievement "mixed" { points = 5, tiers = {
      { "first", when = { screen = "Lessons", seconds = 60 }, points = 5 },
      { "checked", check = function(u) return u.screen("Quiz").seconds > 120 end, points = 10 },
      { "later", when = { sessions = 4 }, points = 20 },
    } }
    local seen = 0
    local p = plugin "ticker"
    p.on("tick", function(u)
      seen = seen + 1
      if seen == 300 then p.unlock("bonus") end
      if seen % 600 == 0 then p.award(3, "ten minutes") end
    end)
    unlock "bonus" { when = { sessions = 1000000 } }
    """

  /// The same pack, but a definition fails inside a `pcall` (a repeated id): a reinstall
  /// cannot take the first load's rules for it and loads in full.
  static let failing = checks + "\npcall(function() unlock \"counted\" { when = { sessions = 1 } } end)\n"

  static func write(_ text: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("speed-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("rules.lua").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test(arguments: [checks, failing]) func aReinstalledPackGivesWhatAFullLoadGives(text: String) async throws {
    let path = try Self.write(text)
    let population = try BalanceTests.population()
    let pack = try BalancePack(path: path)
    let loaded = try LuaRulePack(contentsOf: path)
    let fresh = try loaded.reinstalled()
    #expect(fresh.rules.map(\.id) == loaded.rules.map(\.id))
    #expect(fresh.parsedDefinitions == (text == Self.failing))
    // Each user's pack in the run is a reinstall, not a full load (but for the failing pack).
    let configuration = try pack.configuration(base: .init())
    let first = configuration.listeners.compactMap { $0 as? LuaRulePack }.first
    #expect(first?.parsedDefinitions == (text == Self.failing))
    let run = BalanceRun(pack: pack, population: population, users: 6, days: 5, seed: 3, threads: 2)
    let reinstalled = try await run.run()
    var plain = run
    plain.pack.reinstalls = false
    let full = try await plain.run()
    let report = { (stats: BalanceStats) in
      BalanceReport(stats: stats, pack: pack, population: population, seed: 3).json.rendered(pretty: true)
    }
    #expect(report(reinstalled) == report(full))
    #expect(reinstalled.scriptErrors == 0)
    // The checks and plugins ran (and counted in their upvalues).
    for id in ["bonus", "counted"] {
      let rule = try #require(pack.rules.firstIndex { $0.id == id })
      #expect(Self.users(unlocking: rule, reinstalled) > 0, "\(id)")
    }
  }

  /// How many users unlocked rule `rule` in the run.
  static func users(unlocking rule: Int, _ stats: BalanceStats) -> Int {
    var count = 0
    for persona in 0..<stats.personas {
      for day in 0..<stats.days { count += Int(stats.unlockDays[(persona * stats.rules + rule) * stats.days + day]) }
    }
    return count
  }
}
