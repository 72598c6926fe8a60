import Testing

// Declarative rules at scale: a wake-up looks at the rules whose threshold was crossed, not
// at all of them; and the memory cap holds through host calls and what they trigger.
@testable import Dwell
@testable import DwellLua

@Suite struct SandboxWakeUpTests {
  /// Forty rules that unlock within a minute of use (ten per figure).
  static let reached: [Rule] = (1...10).flatMap { i in
    [
      Rule("app\(i)", when: .appTime(.seconds(i * 5))),
      Rule("screen\(i)", when: .screenTime("S", .seconds(i * 4))),
      Rule("visits\(i)", when: .visits("S", i)),
      Rule("sessions\(i)", when: .sessions(i)),
    ]
  }

  /// What running the same minute costs with `extra` rules beside the forty that never
  /// unlock in it: rules examined, and the unlocks.
  static func run(extra: Int) throws -> (examined: Int, unlocks: [String: Int64]) {
    let far = (0..<extra).map { i -> Rule in
      switch i % 4 {
      case 0: return Rule("far-app\(i)", when: .appTime(.seconds(86_400 + i)))
      case 1: return Rule("far-screen\(i)", when: .screenTime("S", .seconds(86_400 + i)))
      case 2: return Rule("far-visits\(i)", when: .visits("S", 1000 + i))
      default: return Rule("far-sessions\(i)", when: .sessions(1000 + i))
      }
    }
    let rig = Rig(configuration: .init(rules: reached + far))
    let engine = try rig.launch()
    engine.record(.active)
    for second in 0..<60 {
      engine.record(.appear(screen: "S", id: .init("\(second)")))
      rig.advance(0.5)
      engine.record(.disappear(id: .init("\(second)")))
      rig.advance(0.5)
    }
    let examined = engine.withState { _, book in book.examined }
    let unlocks = engine.report().unlocks.mapValues(\.mono.nanoseconds)
    return (examined, unlocks)
  }

  @Test func aWakeUpLooksOnlyAtTheRulesItCrosses() throws {
    let small = try Self.run(extra: 0)
    let large = try Self.run(extra: 39_960)
    #expect(small.unlocks.count >= 25)
    #expect(large.unlocks == small.unlocks)
    // Linear in the rules, the large book would examine a thousand times as many.
    #expect(large.examined <= small.examined * 2, "examined \(large.examined) vs \(small.examined)")
  }

  // MARK: The memory cap through host calls

  static func big(_ arguments: [HostValue]) -> HostValue {
    .list((0..<5000).map { .string(String(repeating: "x", count: 100) + "\($0)") })
  }

  @Test(arguments: [
    // A host function's results, kept: the cap is enforced as soon as each call returns.
    "local keep = {}\nfor i = 1, 100 do keep[i] = host.big() end",
    // Host calls that raise, caught: the cap is back on for what follows.
    "for i = 1, 1000 do pcall(host.big, function() end) pcall(u.screen) end\nlocal t = {} for i = 1, 1e7 do t[i] = i end",
    "for i = 1, 1000 do pcall(string.rep) pcall(table.concat, { {} }) end\nlocal t = {} for i = 1, 1e7 do t[i] = {} end",
    // Metamethods that library calls trigger: they allocate under the cap.
    "local keep = {} local mt = { __lt = function(a, b) keep[#keep + 1] = string.rep('x', 2000) .. #keep "
      + "return a.v < b.v end }\nlocal t = {} for i = 1, 3000 do t[i] = setmetatable({ v = -i }, mt) end table.sort(t)",
    "local keep = {} local t = setmetatable({}, { __index = function(t, i) keep[#keep + 1] = string.rep('y', 2000) .. i "
      + "return 'x' end })\nfor i, v in ipairs(t) do end",
    "local keep = {} local t = setmetatable({}, { __len = function() keep[#keep + 1] = string.rep('z', 1e5) .. #keep "
      + "return 1 end })\nwhile true do local n = #t end",
    "local keep = {} local o = setmetatable({}, { __tostring = function() keep[#keep + 1] = string.rep('w', 1e5) .. #keep "
      + "return 'o' end })\nwhile true do tostring(o) end",
  ])
  func theMemoryCapHoldsThroughHostCalls(script: String) throws {
    let bad = "unlock \"bad\" { check = function(u)\n\(script)\nend }"
    // Budgets and time large enough for memory to be what runs out (the time limits are on
    // the wall clock, which a loaded machine stretches).
    var limits = Hostile.limits
    limits.instructionsPerCall = 30_000_000
    limits.instructionsPerTick = 60_000_000
    limits.timePerCall = .seconds(30)
    limits.timePerTick = .seconds(40)
    let outcome = try Hostile.run(bad, limits: limits, host: { $0.setHostFunction("big", Self.big) })
    #expect(
      outcome.problems.contains { $0.contains("bad.lua:") && $0.contains("memory limit exceeded") },
      "\(outcome.problems)")
    // The cap (4 MiB) plus at most one host result (under 1 MiB) before it is enforced.
    #expect(outcome.pack.runtime.memoryPeak < (4 << 20) + (1 << 20))
  }
}
