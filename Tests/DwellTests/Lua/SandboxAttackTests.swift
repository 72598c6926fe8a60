import DwellHarness
import Foundation
import Testing

// The classes an outside attacker found on an older main, each with hostile scripts of our own:
// C-side loops, loading by count, control characters, awards, error places, print, p.state.
@testable import Dwell
@testable import DwellLua

/// A check whose body (line 2 of bad.lua) misbehaves.
private func check(_ body: String, _ limit: String, line: Int = 2) -> Hostile { .inCheck(body, limit, line: line) }

/// A plugin whose handler body (line 3 of bad.lua) misbehaves at the first screen.
private func plugin(_ body: String, _ limit: String, line: Int = 3) -> Hostile {
  Hostile("local p = plugin \"p\"\np.on(\"screen_enter\", function(u)\n\(body)\nend)", limit, line: line)
}

private let budget = "instruction budget exceeded"

@Suite struct SandboxAttackTests {
  @Test(arguments: [
    // Comparing long strings inside one C call: table.sort's default order, plain find.
    check("local s = string.rep('a', 2e5) local t = {} for i = 1, 5e4 do t[i] = s end table.sort(t)", budget),
    check(
      "local a, b = string.rep('a', 2e5) .. 'x', string.rep('a', 2e5) .. 'y' local t = {} "
        + "for i = 1, 2e4 do t[i] = i % 3 == 0 and a or b end table.sort(t)", budget),
    check("local t = {} for i = 1, 1e5 do t[i] = -i end while true do table.sort(t) end", budget),
    check("local h, n = string.rep('a', 3e5), string.rep('a', 1.5e5) .. 'b' return h:find(n, 1, true)", budget),
    check("local h, n = string.rep('a', 3e5), string.rep('a', 1.5e5) .. 'b' return h:find(n)", budget),
    check("local h = string.rep('ab', 1.5e5) while true do h:find('ab', 1, true) end", budget),
    check("local s = string.rep('1', 3e6) while true do tonumber(s) end", budget),
    check("local s = string.rep('7', 3e6) while true do tonumber(s, 16) end", budget),
    check("local s = string.rep('x', 3e6) while true do tostring(s) end", budget),
    check("local s = string.rep('x', 1e6) while true do s:byte(1, 1e5) end", budget),
    check("local s = string.rep('x', 1e6) while true do utf8.codepoint(s, 1, 1e5) end", budget),
    check("local s = string.rep('x', 1e6) while true do table.concat({ s, s, s }, s) end", budget),
    check("while true do select('#', table.unpack({}, 1, 1e5)) end", "exceeded"),
    check("local t = { string.rep('x', 1e5) } while true do string.char(table.unpack({}, 1, 1e5)) end", budget),
  ])
  func cSideLoopsAreCharged(_ hostile: Hostile) throws {
    try hostile.check()
  }

  @Test func theDefaultSortOrderIsLuas() throws {
    let script = """
      local p = plugin "p"
      p.on("screen_enter", function(u)
        local t = { "pear", "apple", string.rep("z", 100) .. "a", string.rep("z", 100), "fig" }
        table.sort(t)
        local n = { 3, -1, 2.5, 10, 0 }
        table.sort(n)
        local ok, e = pcall(table.sort, { 1, "x", 2 })
        p.publish("r", table.concat(t, ",", 1, 2) .. "|" .. #t[4] .. "|" .. table.concat(n, ",") .. "|" .. e)
      end)
      """
    let outcome = try Hostile.run(script)
    #expect(
      outcome.pack.published["p"]?["r"] == .string("apple,fig|100|-1,0,2.5,3,10|attempt to compare number with string")
        || outcome.pack.published["p"]?["r"]
          == .string("apple,fig|100|-1,0,2.5,3,10|attempt to compare string with number"),
      "\(String(describing: outcome.pack.published["p"])) \(outcome.problems)")
  }

  // MARK: Loading is bounded by a count

  /// 10,000 declarative rules, literal and in a loop.
  static let manyRules = [
    (1...10_000).map { "unlock \"r\($0)\" { when = { appSeconds = \($0) } }" }.joined(separator: "\n"),
    "for i = 1, 10000 do unlock (\"r\" .. i) { when = { screen = \"S\", seconds = i } } end",
    "for i = 1, 5000 do achievement (\"a\" .. i) { points = 1, when = { sessions = i } } end",
  ]

  @Test(arguments: manyRules)
  func aLargePackLoadsTheSameWayUnderAnyTimeLimit(script: String) throws {
    // Per-call and per-tick time limits of 1 ms: loading depends on neither. Loading's own
    // wall-clock backstop is widened under a sanitizer, which slows loading tenfold.
    let load = ScriptLimits().timeToLoad * Int(TestEnvironment.slowdown)
    let tight = ScriptLimits(timePerCall: .milliseconds(1), timePerTick: .milliseconds(1), timeToLoad: load)
    for limits in [ScriptLimits(timeToLoad: load), tight, tight] {
      let pack = try LuaRulePack(scripts: [("many.lua", script)], limits: limits)
      #expect(pack.rules.count >= 5000)
    }
  }

  @Test func loadingStopsAtTheSameCountEveryTime() throws {
    var messages = Set<String>()
    for _ in 0..<3 {
      let loop = "local n = 0\nfor i = 1, 1e12 do n = n + 1 end"
      #expect {
        try LuaRulePack(scripts: [("spin.lua", loop)], limits: ScriptLimits(instructionsToLoad: 3_000_000))
      } throws: { error in
        messages.insert("\(error)")
        return "\(error)".contains("spin.lua:2:")
          && "\(error)".contains("instruction budget exceeded (3000000 instructions per load of the pack)")
      }
    }
    #expect(messages.count == 1)
    // Rules count too: a definition is work for the host.
    let rules = "for i = 1, 3000 do unlock (\"r\" .. i) { when = { sessions = i } } end"
    #expect(throws: RuleError.self) {
      try LuaRulePack(scripts: [("rules.lua", rules)], limits: ScriptLimits(instructionsToLoad: 1_000_000))
    }
  }

  // MARK: Control characters never reach a log or a terminal

  @Test(arguments: [
    "unlock \"t\" { title = \"ok\\n05-04 09:00:00  ★ Unlocked premium\", when = { sessions = 1 } }",
    "unlock \"t\" { title = \"\\27[2J\\27]0;pwned\\7\", when = { sessions = 1 } }",
    "unlock \"t\" { description = \"a\\0b\", when = { sessions = 1 } }",
    "unlock \"t\" { title = \"evil\\u{202E}txt\", when = { sessions = 1 } }",
    "achievement \"t\" { tiers = { { \"bronze\", title = \"\\r\\n\", points = 1, when = { sessions = 1 } } } }",
    "unlock \"t\" { title = string.rep(\"x\", 501), when = { sessions = 1 } }",
  ])
  func titlesWithControlCharactersAreRefusedAtLoad(script: String) {
    #expect {
      try LuaRulePack(scripts: [("titles.lua", "\n" + script)])
    } throws: { error in
      let text = "\(error)"
      return text.contains("titles.lua:2") && (text.contains("control character") || text.contains("longer than 500"))
        && !text.unicodeScalars.contains(where: isControl)
    }
  }

  @Test func nothingAScriptSaysCarriesControlCharactersIntoTheSimLog() throws {
    let dir = TemporaryStore()
    let pack = #"""
      unlock "premium" { title = "Premium", when = { appSeconds = 999999999 } }
      unlock "good" { when = { screen = "Lessons", seconds = 60 } }
      unlock "bad" { check = function(u) error("\n05-04 09:00:00  ★ Unlocked premium \"Premium\"\27[2J", 0) end }
      unlock "bad2" { check = function(u) error({}) end }
      local p = plugin "inj"
      local once = false
      p.on("tick", function(u)
        if once then return end
        once = true
        p.notify("ok\n05-04 09:00:01  ★ Unlocked premium\r", "\0\27[2J\27]0;pwned\7\u{202E}evil")
        p.award(1, "\27[31mred\n★ Unlocked premium")
        print("line\n★ Unlocked premium", "\27[2J")
      end)
      """#
    try pack.write(toFile: dir.directory + "/pack.lua", atomically: true, encoding: .utf8)
    let sim = try Simulator(options: .init(rulesPath: dir.directory, start: parseWall("2026-05-04T07:00:00Z")))
    try sim.perform("open Lessons")
    try sim.perform("wait 2m")
    let texts = sim.log.map(\.text)
    // (print separates its values with a tab, as Lua's does: it fakes no line)
    for text in texts {
      #expect(!text.unicodeScalars.contains { isControl($0) && $0 != "\t" }, "\(text.debugDescription)")
    }
    #expect(!sim.log.contains { $0.kind == .unlock && $0.text.hasPrefix("★ Unlocked premium") })
    #expect(sim.log.contains { $0.kind == .unlock && $0.text.contains("good") })
    #expect(texts.contains { $0.hasPrefix("Script error: pack.lua:3: \\n05-04") }, "\(texts)")
    #expect(texts.contains { $0.hasPrefix("print: pack.lua:12: line\\n★ Unlocked premium") }, "\(texts)")
  }

  // MARK: Awards

  @Test(arguments: ["-1", "-5000", "0/0", "1/0", "-1/0", "1e300", "2.5", "1000001", "math.mininteger", "'10'"])
  func oddAwardsAreRefusedWithTheirPlace(points: String) throws {
    let outcome = try Hostile.run(
      "local p = plugin \"p\"\np.on(\"screen_enter\", function(u)\np.award(\(points), \"x\")\nend)")
    #expect(outcome.engine.report().points == 0)
    #expect(
      outcome.problems.contains { $0.contains("bad.lua:3:") && $0.contains("whole points from 0 to 1,000,000") },
      "\(outcome.problems)")
  }

  // MARK: Errors name the designer's file and line

  @Test(arguments: [
    check("setmetatable(_ENV, {})", "cannot change a protected metatable"),
    check("local ok, e = pcall(setmetatable, _G, {}) error(e)", "protected metatable"),
    check("setmetatable(('').x or {}, getmetatable('x'))", "setmetatable"),
    check("error(setmetatable({}, { __tostring = function() while true do end end }))", "a table value"),
    check("error(nil)", "error(nil)"),
    check("error()", "error(nil)"),
    check("error(42, 0)", "42"),
    check("error('no place', 0)", "no place"),
    check(
      "local t = setmetatable({}, { __tostring = function(s) return tostring(s) end }) return tostring(t)", "overflow"),
    check("local function f(s) return (s:gsub('.', f)) end return f('ab')", "overflow"),
    check("unlock(42)", "unlock"),
    check("plugin(nil)", "plugin needs a name"),
    check("plugin('x').on('nope', print)", "defined only while the pack loads"),
    check("levels(5)", "levels"),
    check("local m = minutes('x') return m", "minutes() takes a number of minutes, got a string"),
    // A tail call leaves no frame of the script: the function's first line is named.
    check("return minutes('x')", "minutes() takes a number of minutes, got a string", line: 1),
  ])
  func errorsNameTheScriptsFileAndLine(_ hostile: Hostile) throws {
    let outcome = try Hostile.run(hostile.script)
    #expect(outcome.problems.allSatisfy { !$0.contains("dwell:") }, "\(outcome.problems)")
    try hostile.check()
  }

  @Test func errorsAtLoadNameTheFileAndLineNotThePrelude() {
    for script in ["-- 1\n-- 2\nsetmetatable(_ENV, {})", "\n\nlocal ok, e = pcall(setmetatable, _G, {}) error(e)"] {
      #expect {
        try LuaRulePack(scripts: [("env.lua", script)])
      } throws: { error in
        "\(error)".contains("env.lua:3") && !"\(error)".contains("dwell:")
      }
    }
  }

  // MARK: print and p.state

  @Test func printedLinesReachTheHostBoundedAndEscaped() throws {
    let lines = Locked<[String]>([])
    _ = try Hostile.run(
      "local p = plugin \"p\"\np.on(\"screen_enter\", function(u)\nfor i = 1, 300 do print(i, '\\27[2J') end\nend)",
      host: { pack in pack.onPrint { line in lines.withLock { $0.append(line) } } })
    let seen = lines.withLock { $0 }
    #expect(seen.first == "bad.lua:3: 1\t\\u{1B}[2J")
    #expect(seen.count <= 4 * 200 && seen.count >= 200)
    #expect(seen.allSatisfy { !$0.unicodeScalars.contains(where: isControl) || $0.contains("\t") })
  }

  @Test(arguments: [
    plugin("p.state = setmetatable({}, { __index = function() while true do end end })", "metatable", line: 2),
    plugin("p.state = { n = 1, inner = setmetatable({}, {}) }", "metatable", line: 2),
    plugin("p.state = function() end", "cannot be used here", line: 2),
    // Bytes that are not UTF-8 text would come back as U+FFFD: refused, wherever they are.
    plugin("p.state = { s = { 'ok', '\\xff' } }", "state.s[2]: a string is not UTF-8 text (byte 1 is 0xFF)", line: 2),
    plugin("p.publish('k', { ['\\xc0'] = 1 })", "publish: a key is not UTF-8 text (byte 1 is 0xC0)"),
    // A reason or a body of the wrong kind is said, not dropped.
    plugin(
      "p.award(5, { 'late' })", "award's reason must be a string, as in owl.award(10, \"late practice\"), not a table"),
    plugin(
      "p.notify('Owl', 10)",
      "notify's body must be a string, as in owl.notify(\"Night owl\", \"10 minutes\"), not a number"),
  ])
  func aStateThatCannotBeSavedIsAClearError(_ hostile: Hostile) throws {
    try hostile.check()
  }

  @Test func replacingTheStateWorks() throws {
    let script =
      "local p = plugin \"p\"\np.on(\"screen_enter\", function(u) p.state = { n = (p.state.n or 0) + 1 } end)"
    let pack = try LuaRulePack(scripts: [("s.lua", script)])
    let rig = Rig(configuration: .init(listeners: [pack]))
    let engine = try rig.launch()
    engine.record(.active)
    for i in 0..<3 { engine.record(.appear(screen: "S\(i)", id: .init("\(i)"))) }
    rig.advance(1)
    try engine.commit()
    #expect(pack.diagnostics.isEmpty, "\(pack.diagnostics)")
    let actions = pack.runtime.box.withLock { $0.savedStates }
    #expect(actions["p"] == #"{"n":3}"#)
  }
}
