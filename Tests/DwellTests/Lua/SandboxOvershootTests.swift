// Hostile checks whose instructions each do milliseconds of C work no count sees (comparing
// long strings, NULs, collections forced by refused allocations, table.concat's copying):
// each is stopped near its time limit, or refused, or charged, and the host goes on.
import CLuaSandbox
import Dwell
import Testing

@testable import DwellLua

/// A check whose body (line 2 of bad.lua) misbehaves.
private func check(_ body: String, _ limit: String, line: Int = 2) -> Hostile { .inCheck(body, limit, line: line) }

private let time = "time limit exceeded (100 ms)"
private let nuls = "string limit exceeded (a string of more than 65536 NUL bytes"
private let budget = "instruction budget exceeded"

/// A budget far above what these calls do, so that the time limit (or the refusal) stops them.
private let roomy = ScriptLimits(
  memory: 8 << 20, instructionsPerCall: 50_000_000, instructionsPerTick: 100_000_000, timePerCall: .milliseconds(100),
  timePerTick: .milliseconds(250), instructionsToLoad: 2_000_000)

/// Runs the case under `roomy`; checks a problem names `bad.lua`, the line and the limit; returns
/// the wall-clock time the run took (loading, and the ticks), and the most a call ran past its
/// time limit.
@discardableResult
private func stopped(
  _ hostile: Hostile, sourceLocation: SourceLocation = #_sourceLocation
) throws -> (run: Duration, overshoot: Duration) {
  let clock = ContinuousClock()
  let start = clock.now
  let outcome = try Hostile.run(hostile.script, limits: roomy, sourceLocation: sourceLocation)
  let took = clock.now - start
  #expect(!outcome.unlocks.contains("bad"), sourceLocation: sourceLocation)
  #expect(
    outcome.problems.contains { $0.contains("bad.lua:\(hostile.line):") && $0.contains(hostile.limit) },
    "problems: \(outcome.problems)", sourceLocation: sourceLocation)
  let overshoot = outcome.pack.runtime.box.withLock { $0.state.c.pointee.overshoot_ns }
  return (took, .nanoseconds(overshoot))
}

@Suite struct SandboxOvershootTests {
  /// Each compares strings in a loop: a few instructions, each of up to a millisecond of C
  /// work (a `<` of 60,000 shared NULs is 60,000 calls of strcoll). The count hook runs
  /// often enough while such a string is alive that the call stops near its 100 ms.
  @Test(arguments: [
    check("while true do end", time),  // the baseline: instructions of nanoseconds
    check("local a = string.rep('\\0', 6e4) local b = a .. '' while true do local _ = a < b end", time),
    check("local a = string.rep('\\0', 6e4) local b = a .. '' while true do local _ = a <= b, b < a end", time),
    check("local a = string.rep('x\\0', 3e4) local b = a .. '' while true do local _ = a >= b end", time),
    check("local a = string.rep('\\0', 1000) local b = a .. '' while true do local _ = a < b end", time),
    check("local s = string.rep('x', 1.5e6) local a, b = s .. 'y', s .. 'y' while true do local _ = a < b end", time),
    check(
      "local s = string.rep('x', 1.5e6) local a, b = s .. 'y', s .. 'y' while true do local _ = rawequal(a, b) end",
      time),
    check(
      "local t = {} local s = string.rep('\\0', 5e4) for i = 1, 8 do t[i] = s .. i end "
        + "while true do for i = 1, 7 do local _ = t[i] < t[i + 1] end end", time),
  ])
  func comparingCostlyStringsStopsNearTheLimit(_ hostile: Hostile) throws {
    let (took, overshoot) = try stopped(hostile)
    // How far past its 100 ms the call ran (the sandbox measures it): at most 10 ms but for
    // the machine's load (a thread preempted as the limit passes); ten times that here.
    #expect(overshoot < .milliseconds(100) * TestEnvironment.slowdown, "the call ran \(overshoot) past its limit")
    #expect(took < .seconds(1) * TestEnvironment.slowdown, "the run took \(took)")
    print("overshoot: \(overshoot) past 100 ms (run \(took)) for \(hostile.script.split(separator: "\n")[1])")
  }

  /// A string of more NULs than that is refused wherever it is made: one `<` of it would
  /// take longer than a call may pass its limit by.
  @Test(arguments: [
    check("local a = string.rep('\\0', 1e6) return a < a", nuls),
    check("local a = string.rep('\\0\\0', 4e4) return a < a", nuls),
    check("local s = '\\0' for i = 1, 20 do s = s .. s end return s < s", nuls),
    // Made by a tail call, the call's last instruction: refused as the call returns, at the
    // function's first line.
    check("local s = string.rep('\\0', 1e3) return table.concat({ s, s, s }, '', 1, 3):rep(40)", nuls, line: 1),
    check("while true do pcall(string.rep, '\\0', 2e5) end", nuls),
    check("local ok = pcall(function() local s = ('\\0'):rep(7e4) end) return ok", nuls),
    check("local s = string.rep('\\0', 4e4) return string.format('%s%s', s, s) < s", nuls),
  ])
  func stringsOfTooManyNULsAreRefused(_ hostile: Hostile) throws {
    try stopped(hostile)
  }

  /// Refused allocations caught by pcall: each forced a full collection. After 8 in one call
  /// the call stops, and each is charged.
  @Test(arguments: [
    check(
      "local big = string.rep('x', 1.5e6) while true do pcall(function() local _ = big .. big .. big .. big .. big .. big end) end",
      "8 allocations refused in one call"),
    check(
      "local t = {} for i = 1, 5e3 do t[i] = { i } end local s = string.rep('y', 1e6) "
        + "while true do pcall(string.rep, s, 9) end", "8 allocations refused in one call"),
  ])
  func refusedAllocationsAreCounted(_ hostile: Hostile) throws {
    try stopped(hostile)
  }

  /// table.concat is charged by the bytes it copies, not only its elements: two 500 KB
  /// pieces cost 125,000 units, so the loop spends its 200,000 at the second call.
  @Test(arguments: [
    check("local s = string.rep('x', 5e5) local t = { s, s } while true do local _ = table.concat(t) end", budget),
    check("local t = { 'a', 'b' } local sep = string.rep(',', 1e6) while true do table.concat(t, sep) end", budget),
  ])
  func tableConcatIsChargedByItsBytes(_ hostile: Hostile) throws {
    try hostile.check()
  }

  @Test func stringsBelowTheLimitsStillWork() throws {
    let script = """
      local p = plugin "p"
      p.on("screen_enter", function(u)
        local a = string.rep("\\0", 5000) .. "a"
        local b = string.rep("\\0", 5000) .. "b"
        local big = string.rep("xxxxxxxxxx", 20000)
        local t = {}
        for i = 1, 50 do t[i] = "w" .. i end
        p.publish("r", tostring(a < b) .. tostring(big == big .. "") .. #table.concat(t, ",") .. #(big .. big))
      end)
      """
    let outcome = try Hostile.run(script)
    #expect(outcome.pack.published["p"]?["r"] == .string("truetrue190400000"), "\(outcome.problems)")
    #expect(outcome.problems.isEmpty, "\(outcome.problems)")
  }
}
