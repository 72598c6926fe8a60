// Hostile scripts whose work the instruction count never saw: lengths read twice by the
// table functions, C comparators, and what they cost once charged.
import Dwell
import Testing

@testable import DwellLua

/// A check whose body (line 2 of bad.lua) misbehaves.
private func check(_ body: String, _ limit: String, line: Int = 2) -> Hostile { .inCheck(body, limit, line: line) }

/// A table whose `__len` answers 1 to the first read and `big` to every later one.
private func lying(_ big: String, _ elements: String = "1") -> String {
  "local n = 0 local t = setmetatable({ \(elements) }, { __len = function() n = n + 1 "
    + "return n == 1 and 1 or \(big) end })"
}

private let refused = "metamethod (sandbox)"

@Suite struct SandboxChargeTests {
  @Test(arguments: [
    // A length that lies: table.remove, table.insert and table.sort would loop in C.
    check(lying("2^40") + " table.remove(t, 1)", refused),
    check(lying("2^40") + " table.remove(t)", refused),
    check(lying("2^40") + " table.insert(t, 1, 5)", refused),
    check(lying("2^30", "1, 2") + " table.sort(t, rawequal)", refused),
    check(lying("2^30", "1, 2") + " table.sort(t)", refused),
    check(lying("2^30", "'a', 'b'") + " return table.concat(t)", refused),
    check(lying("2^20") + " return select('#', table.unpack(t))", refused),
    // Elements read through a C function that no count sees.
    check("local t = setmetatable({}, { __index = rawequal }) table.insert(t, 1, 1)", refused),
    check("local t = setmetatable({}, { __newindex = rawequal }) table.insert(t, 1, 1)", refused),
    check("local t = setmetatable({}, { __index = rawget }) table.move({ 1, 2 }, 1, 2, 1, t)", refused),
    // Caught: refused again at every call, the loop stopped by the budget.
    check(lying("2^40") + " while true do pcall(table.remove, t, 1) end", "instruction budget exceeded"),
    // One instruction of milliseconds of C work: arithmetic on a numeral of megabytes.
    check("local s = string.rep('1', 1e5) local x = 0 while true do x = x + (s + 0) end", "more than 200 bytes"),
    check("local s = string.rep('9', 1e5) return -s", "more than 200 bytes"),
    check("local s = ' 1' .. string.rep('0', 300) return s * 2 > 0", "more than 200 bytes"),
    // The collector's work: weak tables (ephemeron chains) are refused.
    check("local t = setmetatable({}, { __mode = 'k' })", "__mode (weak tables) is not allowed"),
    check("local mt = { __mode = 'v' } local t = setmetatable({}, mt)", "__mode (weak tables) is not allowed"),
    // A C comparator is charged per comparison.
    check(
      "local t = {} for i = 1, 3e4 do t[i] = i end while true do table.sort(t, math.ult) end",
      "instruction budget exceeded"),
  ])
  func workTheCountNeverSawIsRefusedOrCharged(_ hostile: Hostile) throws {
    try hostile.check()
  }

  @Test func plainTablesAndMetatablesWithoutThoseFieldsStillWork() throws {
    let script = """
      local p = plugin "p"
      p.on("screen_enter", function(u)
        local t = setmetatable({ 3, 1, 2 }, { __tostring = function() return "t" end })
        table.sort(t)
        table.insert(t, 1, 0)
        table.remove(t)
        local c = { "b", "a" }
        table.sort(c, rawequal)
        p.publish("r", table.concat(t, ",") .. "|" .. tostring(t) .. "|" .. #c .. "|" .. ("2" + 1) .. ("0x10" * "2"))
      end)
      """
    let outcome = try Hostile.run(script)
    #expect(outcome.pack.published["p"]?["r"] == .string("0,1,2|t|2|332"), "\(outcome.problems)")
    #expect(outcome.problems.isEmpty, "\(outcome.problems)")
  }
}
