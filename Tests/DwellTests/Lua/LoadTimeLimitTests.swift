// Loading's time limit covers reading a script's text, not only running it (#28 item 4).
import Dwell
import Testing

@testable import DwellLua

/// `ScriptLimits.timeToLoad` bounds the host time to load a pack: Lua's parser reading the
/// text counts, as the top-level code running does. A pack whose text takes long to read
/// and whose code does nothing at load (a function of 60,000 statements that is never
/// called, or a table of thousands of tiers) was read whatever the limit (`dwell rules
/// check` refused one after 12-18 s where 10 s is documented), and accepted when only its
/// reading was long. The limits here are tiny so that no machine reads the text in time.
@Suite struct LoadTimeLimitTests {
  /// A script that takes milliseconds to read and microseconds to run.
  static let longToRead: String = {
    var lines = ["local function never()", "  local x = 0"]
    for i in 0..<60_000 { lines.append("  x = x + \(i % 97) * 3 - (x // 7)") }
    lines += ["  return x", "end", "unlock \"fine\" { when = { appSeconds = 10 } }"]
    return lines.joined(separator: "\n")
  }()

  func limits(milliseconds: Int64) -> ScriptLimits {
    var limits = ScriptLimits()
    limits.timeToLoad = .milliseconds(milliseconds)
    return limits
  }

  @Test func readingTheTextCountsAgainstTheTimeToLoad() throws {
    // Within the default limit the pack loads.
    let pack = try LuaRulePack(scripts: [("long.lua", Self.longToRead)])
    #expect(pack.rules.map(\.id) == ["fine"])
    let error = #expect(throws: RuleError.self) {
      try LuaRulePack(scripts: [("long.lua", Self.longToRead)], limits: limits(milliseconds: 1))
    }
    let message = error?.description ?? ""
    #expect(message.contains("long.lua:"), "the file is named: \(message)")
    #expect(message.contains("time limit exceeded (1 ms)"), "the limit is named: \(message)")
  }
}
