import Testing

// A scripted check runs every second only while it reads what changes with time: a long wait costs its events.
@testable import Dwell
@testable import DwellLua

@Suite struct CheckWakeUpTests {
  /// A pack whose check counts its runs, and a plugin that publishes the count at each screen.
  static func pack(_ body: String) throws -> LuaRulePack {
    try LuaRulePack(scripts: [
      (
        "rules.lua",
        """
        local runs = 0
        unlock "watched" { check = function(u) runs = runs + 1 \(body) end }
        local p = plugin "probe"
        p.on("screen_enter", function(u) p.publish("runs", runs) end)
        """
      )
    ])
  }

  /// Runs `pack` through three days of use with one screen, then a second screen; returns
  /// how often the check ran, and the engine.
  static func threeDays(_ pack: LuaRulePack) throws -> (runs: Int, engine: Engine) {
    let rig = Rig(configuration: .init(rules: pack.rules, listeners: [pack]))
    let engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "A", id: .init("a")))
    rig.advance(3 * 86400)
    engine.record(.appear(screen: "B", id: .init("b")))
    guard case .number(let runs, _)? = pack.publishedJSON["probe"]?["runs"] else { return (-1, engine) }
    return (Int(runs), engine)
  }

  @Test func aCheckOfFiguresThatChangeOnlyOnEventsDoesNotRunEverySecond() throws {
    let (runs, engine) = try Self.threeDays(Self.pack("return u.app.sessions > 5"))
    // At the events, at each midnight and at checkpoints: not at each of 259,200 seconds.
    #expect(runs > 0 && runs < 100, "the check ran \(runs) times")
    #expect(engine.report().unlocks["watched"] == nil)
  }

  @Test func aCheckOfTimeRunsEverySecondAndUnlocksOnTime() throws {
    let pack = try Self.pack("return u.app.sessions >= 1 and u.app.seconds >= 100000")
    let (runs, engine) = try Self.threeDays(pack)
    #expect(runs >= 100_000, "the check ran \(runs) times")
    let unlock = try #require(engine.report().unlocks["watched"])
    #expect(unlock.mono.nanoseconds == 100_000 * 1_000_000_000)
  }

  @Test(arguments: ["u.screen(\"A\").seconds > 1e9", "host.flag == true", "u.hour == 25", "u.app.active_days > 99"])
  func aCheckThatReadsTimeOrTheHostRunsEverySecond(condition: String) throws {
    let (runs, _) = try Self.threeDays(Self.pack("return \(condition)"))
    #expect(runs >= 3 * 86400, "the check ran \(runs) times")
  }
}
