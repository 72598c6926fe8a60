// What the host keeps of a pack's plugin states stays bounded however many plugins it has:
// the states add up to at most 1 MiB (the plugin past it is disabled, with a problem), the
// trees kept to skip writing out an unchanged state add up to at most 256 KiB of text, and
// writing out the states past that is charged to the pack's sustained budget.
import CLuaSandbox
import Testing

@testable import Dwell
@testable import DwellLua

@Suite struct PluginStateBoundsTests {
  /// `count` plugins, each keeping a state of `bytes` bytes that its tick handler reads
  /// without changing it.
  private func pack(plugins count: Int, bytes: Int) throws -> LuaRulePack {
    let plugins = (1...count).map { i in
      """
      local p\(i) = plugin "p\(i)"
      p\(i).on("tick", function(u) if not p\(i).state.s then p\(i).state.s = string.rep("x", \(bytes)) end end)
      """
    }
    let limits = ScriptLimits(memory: 32 << 20)
    return try LuaRulePack(scripts: [("states.lua", plugins.joined(separator: "\n"))], limits: limits)
  }

  private func usage(_ k: Int) -> UsageFigures {
    UsageFigures(
      appSeconds: Double(k), sessions: 1, activeDays: 1, longestStreak: 1, currentStreak: 1, todaySeconds: Double(k),
      today: Day(ordinal: 20_454), hour: 12, instant: MonotonicInstant(nanoseconds: Int64(k) * 1_000_000_000),
      revision: UInt64(k), screens: [], screenIndex: [:])
  }

  private func saved(_ actions: [UsageAction]) -> [String: String] {
    var states: [String: String] = [:]
    for case .saveState(let source, let data) in actions { states[source] = data }
    return states
  }

  @Test func theStatesOfAPackAddUpToOneMebibyteAtMost() throws {
    let pack = try pack(plugins: 80, bytes: 20_000)  // 1.6 MB asked for
    _ = pack.receive(.tick, usage: usage(1))
    let states = saved(pack.takeStates())
    let total = states.values.reduce(0) { $0 + $1.utf8.count }
    #expect(total <= 1 << 20)
    #expect(states.count >= 50)  // the plugins within the bound keep theirs
    #expect(states.count < 80)
    let problems = pack.diagnostics.map(\.message)
    #expect(problems.contains { $0.contains("past 1 MiB in all (sandbox limit)") }, "\(problems)")
    // A disabled plugin no longer runs, so no state of it is saved later either.
    _ = pack.receive(.tick, usage: usage(2))
    #expect(saved(pack.takeStates()).isEmpty)
  }

  @Test func writingOutStatesPastTheKeptTreesIsChargedToThePack() throws {
    let pack = try pack(plugins: 40, bytes: 20_000)  // 800 KB: past the 256 KiB of trees kept
    _ = pack.receive(.tick, usage: usage(1))
    #expect(saved(pack.takeStates()).count == 40)
    let kept = pack.runtime.box.withLock { $0.lastStates.bytes }
    #expect(kept > 0)
    #expect(kept <= StateCache.textBudget)
    // The handlers run again and change nothing: nothing is saved, but the states past the
    // trees kept are written out again to be compared, and that costs the pack.
    _ = pack.receive(.tick, usage: usage(2))
    let before = pack.runtime.box.withLock { $0.state.c.pointee.total_ns }
    #expect(saved(pack.takeStates()).isEmpty)
    let after = pack.runtime.box.withLock { $0.state.c.pointee.total_ns }
    #expect(after > before)
    #expect(pack.diagnostics.isEmpty)
  }

  @Test func aStateKeptAsATreeIsNotWrittenOutAgain() throws {
    let pack = try pack(plugins: 2, bytes: 1_000)
    _ = pack.receive(.tick, usage: usage(1))
    #expect(saved(pack.takeStates()).count == 2)
    #expect(pack.runtime.box.withLock { $0.lastStates.bytes } >= 2_000)
    _ = pack.receive(.tick, usage: usage(2))
    #expect(saved(pack.takeStates()).isEmpty)
  }
}
