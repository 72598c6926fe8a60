// The sustained budget: a pack that stays just under every per-call and per-tick limit is
// throttled, then disabled, by the share of a core it uses over app time (a manual clock).
import Dwell
import Testing

@testable import DwellLua

/// A plugin that spends about 100,000 instructions at each screen (under the 200,000 a call
/// of `Hostile.limits` allows) and counts the screens it saw, published as "n".
private let drain = """
  local p = plugin "drain"
  local seen = 0
  p.on("screen_enter", function(u)
    seen = seen + 1
    local x = 0 for i = 1, 50000 do x = x + i end
    p.publish("n", seen)
  end)
  """

private func limits(share: Double, total: Duration? = nil) -> ScriptLimits {
  var limits = Hostile.limits
  limits.sustainedShare = share
  limits.totalHostTime = total
  return limits
}

@Suite struct SandboxSustainedBudgetTests {
  private func seen(_ outcome: Hostile.Outcome) -> Double {
    if case .number(let n) = outcome.pack.published["drain"]?["n"] { return n }
    return 0
  }

  @Test func aPackOverItsShareIsThrottledThenDisabledWithOneProblem() throws {
    // 0.01 % of a core: 6 ms of host time a minute, and 0.1 ms (33,333 units) a tick once
    // throttled; the plugin counts at least 0.3 ms a call, within every limit of its own.
    let outcome = try Hostile.run(drain, seconds: 60, limits: limits(share: 0.0001))
    let problems = outcome.problems.filter { $0.contains("sustained budget") }
    #expect(problems.count == 1, "\(outcome.problems)")
    #expect(problems.first?.hasPrefix("plugin 'drain': bad.lua:5:") == true, "\(problems)")
    #expect(problems.first?.contains("throttled: the pack used more than 0.01 % of a core over 60 s") == true)
    // It ran until its use filled the budget, then no more (the good check beside it, in the
    // same pack, went on: Hostile.run checks that it unlocked).
    let ran = seen(outcome)
    #expect(ran >= 1 && ran < 30, "ran \(ran) times in 60 s")
  }

  @Test func aPackUnderItsShareRunsAtEveryScreen() throws {
    let share = 0.02 * Double(TestEnvironment.slowdown)
    let outcome = try Hostile.run(drain, seconds: 100, limits: limits(share: share))
    #expect(seen(outcome) == 100, "\(outcome.problems)")
    #expect(!outcome.problems.contains { $0.contains("sustained") }, "\(outcome.problems)")
  }

  @Test func theToolsBoundTheTotalHostTime() throws {
    let outcome = try Hostile.run(drain, seconds: 50, limits: limits(share: 0, total: .milliseconds(5)))
    let problems = outcome.problems.filter { $0.contains("host time the tools allow") }
    #expect(problems.count == 1, "\(outcome.problems)")
    #expect(problems.first?.hasPrefix("plugin 'drain': bad.lua:5:") == true, "\(problems)")
    #expect(seen(outcome) < 25, "ran \(seen(outcome)) times")
  }

  @Test(arguments: [-1, 0, .nan, 2, 0.5])
  func theShareIsClampedAndNotANumberIsTheDefault(_ share: Double) {
    let ppm = ScriptLimits(sustainedShare: share).sustainedPPM
    #expect(ppm == (share.isNaN ? 10_000 : Int64(min(max(share, 0), 1) * 1_000_000)))
  }
}
