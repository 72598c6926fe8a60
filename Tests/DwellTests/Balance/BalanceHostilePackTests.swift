// A pack that makes the host work hard for it (a plugin publishing 64 values of about 12 KiB
// every simulated second: each one converted and written out by the host) costs `dwell
// balance` a bounded share per simulated user (#28 item 4): its users run under the tools'
// limits, and the plugin is stopped early, with a problem for each user; the honest rule
// beside it unlocks for everyone.
import Testing

@testable import DwellBalance

@Suite struct BalanceHostilePackTests {
  static let pack = """
    unlock "good" { when = { sessions = 1 } }
    local p = plugin "flood"
    p.on("tick", function(u)
      p.award(1, "a second")
      local big = {}
      for i = 1, 1000 do big[i] = { i, i * 2, "x" } end
      for k = 1, 64 do p.publish("k" .. k, big) end
    end)
    """

  /// One session a day of 20 minutes on one screen: 1,200 ticks a day.
  static let personas = """
    persona "steady" { daily = 1, churn = 0, sessions = 1, sessionLength = 1200,
                       screens = { A = { stay = 1200 } }, start = "A" }
    """

  @Test func aPluginThatMakesTheHostWorkIsStoppedForEachUser() async throws {
    let report = try await BalanceActionsTests.report(Self.pack, Self.personas, users: 4, days: 3)
    let good = try #require(report.rules.first { $0.info.id == "good" })
    #expect(good.shares.last == 1)
    // 3,600 ticks a user: the plugin is stopped long before (each tick of it is tens of
    // milliseconds of the host's work, far past 1 % of a core).
    let points = try #require(report.personas.first?.medianPoints.last)
    #expect(points < 600, "the flood ran \(points) ticks of 3,600")
    #expect(report.scriptErrors >= 4, "one problem per user: \(report.scriptErrors)")
  }
}
