// Hostile checks that try to run for ever: each is stopped, named, and the host goes on.
import Dwell
import Testing

@testable import DwellLua

/// A check whose body (line 2 of bad.lua) misbehaves.
private func check(_ body: String, _ limit: String, line: Int = 2) -> Hostile { .inCheck(body, limit, line: line) }

private let budget = "instruction budget exceeded (200000 instructions per call)"

@Suite struct SandboxTimeTests {
  @Test(arguments: [
    check("while true do end", budget),
    check("for i = 1, math.huge do end", budget),
    check("local function spin() while true do end end while true do pcall(spin) end", budget),
    check("while true do pcall(function() while true do end end) end", budget),
    check("local ok = pcall(function() while true do end end) if not ok then return true end", budget),
    check("while true do pcall(error, 'x') end", budget),
    check("xpcall(function() while true do end end, function() while true do end end)", budget),
    check("while true do xpcall(function() while true do end end, function(m) return m end) end", budget),
    check("local ok = xpcall(function() while true do end end, function() return true end) return not ok", budget),
    check("local function f() return f() end return f()", budget),
    check("tostring(setmetatable({}, { __tostring = function() while true do end end }))", budget),
    check("local t = setmetatable({}, { __index = function(t, k) return t[k + 1] end }) return t[1]", "stack overflow"),
    check("local t = setmetatable({}, { __len = function() while true do end end }) return #t", budget),
    check("local t = {} for i = 1, 1e5 do t[i] = i end table.sort(t, function(a, b) return a > b end)", budget),
    check(
      "local mt = {} local o = setmetatable({}, mt)\nmt.__close = function() while true do end end\n"
        + "do local x <close> = o end", budget, line: 3),
    check("setmetatable({}, { __gc = function() while true do end end })", "__gc and __close are not allowed"),
    check(
      "local x <close> = setmetatable({}, { __close = function() while true do end end })",
      "__gc and __close are not allowed"),
  ])
  func runawayCodeIsStopped(_ hostile: Hostile) throws {
    try hostile.check()
  }

  @Test(arguments: [
    check("string.rep('', 1e18)", budget),
    check("string.rep('x', 1e9)", budget),
    check("string.rep('ab', 1e5, string.rep(',', 1e5))", budget),
    check("table.move({}, 1, math.maxinteger, 2)", budget),
    check("table.move({}, 1, 1e18, 2)", budget),
    check("table.unpack({}, 1, 1e8)", budget),
    check("select('#', table.unpack({}, 1, 1e6))", budget),
    check(
      "table.concat(setmetatable({}, { __len = function() return math.maxinteger end, "
        + "__index = function() return 'x' end }))", "metamethod (sandbox)"),
    check(
      "table.insert(setmetatable({}, { __len = function() return math.maxinteger - 1 end }), 1, 'x')",
      "metamethod (sandbox)"),
    check("local s = string.rep('x', 1e6) for i = 1, 1e9 do s:upper() end", budget),
    check("local s = string.rep('x', 1e6) for i = 1, 1e9 do s:reverse() end", budget),
    check("local s = string.rep('x', 1e6) for i = 1, 1e9 do utf8.len(s) end", budget),
    check("local s = string.rep('x', 1e6) for i = 1, 1e9 do string.format('%s', s) end", budget),
    check("local s = string.rep('x', 1e6) for i = 1, 1e9 do s:sub(2) end", budget),
    check(
      "local s = 'x' for i = 1, 20 do s = s .. s end local a, b = s .. 'y', s .. 'y' while a == b do end",
      "time limit exceeded (100 ms)"),
    // Errors caught in a loop: a few instructions each, and the work of raising and
    // catching the error besides (2,500 of them fit in the budget only if that is free).
    check("for i = 1, 2500 do pcall(error, 'x') end", budget),
    check("for i = 1, 2500 do pcall(function() return nil + 1 end) end", budget),
    check("for i = 1, 2500 do xpcall(error, function(m) return m end, 'x') end", budget),
  ])
  func libraryLoopsAreChargedByTheirWork(_ hostile: Hostile) throws {
    try hostile.check()
  }

  @Test(arguments: [
    check("local s = string.rep('a', 2e4) return s:find(string.rep('.-', 12) .. 'b')", budget),
    check("local s = string.rep('a', 2e4) return s:match(string.rep('a*', 10) .. 'b')", budget),
    check("local s = string.rep('a', 2e4) for w in s:gmatch('(a-)%1b') do end", budget),
    check("local s = string.rep('(', 3e4) for i = 1, 1e9 do s:find('%b()') end", budget),
    check("local s = string.rep('a', 2e4) return s:gsub('.-.-.-b', 'x')", budget),
    check("local s = string.rep('a', 1e5) while true do s:find('ab', 1, true) end", budget),
    check("local s = string.rep('a', 1e5) while true do s:find('aaaaaaaab') end", budget),
    check("local s = string.rep('x', 1e4) return s:gsub('x', string.rep('%0', 1e4))", budget),
    check(
      "local s = string.rep('a', 300) return s:find(string.rep('a?', 300) .. string.rep('a', 300))",
      "pattern too complex"),
  ])
  func patternMatchingChargesEveryStep(_ hostile: Hostile) throws {
    try hostile.check()
  }

  @Test func patternsStillMatchAsInLua() throws {
    // The bounded matcher against results of Lua 5.4's own (checked over 7,000 cases).
    let script = #"""
      local r = {}
      local function put(...)
        local t = table.pack(...)
        for i = 1, t.n do t[i] = tostring(t[i]) end
        r[#r + 1] = table.concat(t, "|", 1, t.n)
      end
      put(string.find("hello world", "o w"))
      put(string.find("hello world", "l+"))
      put(string.match("  key = value  ", "%s*(%w+)%s*=%s*(%w+)"))
      put(string.match("f(a(b)c)d", "%b()"))
      put(string.find("THE (quick) fox", "%f[%a]%a+", 5))
      put(string.gsub("hello world", "(o)", "[%1]"))
      put(string.gsub("abc", "", "-"))
      put(string.match("hello", "()ll()"))
      put(string.gsub("abc", "%w", { a = "1", b = false }))
      for k, v in string.gmatch("x=1, y=22", "(%w+)=(%w+)") do put(k, v) end
      put(pcall(string.find, "x", "[a"))
      return table.concat(r, "\n")
      """#
    let pack = try LuaRulePack(
      scripts: [
        (
          "p.lua",
          "local f = function() \(script) end local p = plugin 'p' "
            + "p.on('screen_enter', function() p.publish('r', f()) end)"
        )
      ])
    let rig = Rig(configuration: .init(listeners: [pack]))
    let engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "S", id: .init("s")))
    let expected = """
      5|7
      3|4
      key|value
      (a(b)c)
      6|10
      hell[o] w[o]rld|2
      -a-b-c-|4
      3|5
      1bc|3
      x|1
      y|22
      false|malformed pattern (missing ']')
      """
    #expect(pack.published["p"]?["r"] == .string(expected), "\(pack.diagnostics)")
  }

  @Test func aPackOfManyChecksSharesOneBudgetPerTick() throws {
    // 300 checks, each just under a call's budget: together thirty times the pack's per tick.
    let heavy = (0..<300).map { "unlock \"heavy\($0)\" { check = function(u) for i = 1, 60000 do end end }" }
    let outcome = try Hostile.run(heavy.joined(separator: "\n"), seconds: 6)
    let shared = outcome.problems.filter {
      $0.contains("instruction budget exceeded (3322 instructions per call: the pack's 1000000 per tick shared by 301")
    }
    #expect(shared.count == 300, "\(outcome.problems.prefix(3))")
  }

  @Test func pluginsThatUnlockInAChainShareTheBudget() throws {
    let rules = (0..<50).map { "unlock \"r\($0)\" { when = { sessions = 1000 } }" }.joined(separator: "\n")
    let chain = """
      local p = plugin "chain"
      p.on("unlock", function(u, id)
        for i = 1, 150000 do end
        local n = tonumber(id:match("^r(%d+)$") or "-1")
        p.unlock("r" .. (n + 1) % 50)
      end)
      p.on("screen_enter", function(u) p.unlock("r0") end)
      """
    let outcome = try Hostile.run(rules + "\n" + chain, seconds: 4)
    #expect(
      outcome.problems.contains {
        $0.contains("plugin 'chain'") && $0.contains("bad.lua:53:") && $0.contains("per tick")
      },
      "\(outcome.problems)")
  }
}
