// Reading a script's text has a time limit of its own, apart from the load's (#28 item 4).
import Dwell
import Testing

@testable import DwellLua

/// `ScriptLimits.timeToRead` bounds the host time Lua's parser takes reading a pack's text,
/// `timeToLoad` the time its code runs. A pack whose text takes long to read and whose code
/// does nothing at load (a function of 60,000 statements that is never called) was read
/// whatever the limit (`dwell rules check` refused one after 12-18 s where 10 s is
/// documented); reading counted against `timeToLoad` then, and a large legitimate pack
/// loaded differently under different load limits (`SandboxAttackTests`). The limits here
/// are tiny so that no machine reads the text in time.
@Suite struct LoadTimeLimitTests {
  /// A script that takes milliseconds to read and microseconds to run.
  static let longToRead: String = {
    var lines = ["local function never()", "  local x = 0"]
    for i in 0..<60_000 { lines.append("  x = x + \(i % 97) * 3 - (x // 7)") }
    lines += ["  return x", "end", "unlock \"fine\" { when = { appSeconds = 10 } }"]
    return lines.joined(separator: "\n")
  }()

  @Test func readingTheTextHasATimeLimitOfItsOwn() throws {
    // Within the default limits the pack loads.
    let pack = try LuaRulePack(scripts: [("long.lua", Self.longToRead)])
    #expect(pack.rules.map(\.id) == ["fine"])
    var limits = ScriptLimits()
    limits.timeToRead = .milliseconds(1)
    let error = #expect(throws: RuleError.self) {
      try LuaRulePack(scripts: [("long.lua", Self.longToRead)], limits: limits)
    }
    let message = error?.description ?? ""
    #expect(message.contains("long.lua:"), "the file is named: \(message)")
    #expect(message.contains("time limit exceeded reading the pack (1 ms)"), "the limit is named: \(message)")
  }

  /// Reading does not count against the load's time: the same pack, whose code runs in
  /// microseconds, loads under a load limit of 1 ms.
  @Test func readingDoesNotCountAgainstTheTimeToLoad() throws {
    var limits = ScriptLimits()
    limits.timeToLoad = .milliseconds(1)
    let pack = try LuaRulePack(scripts: [("long.lua", Self.longToRead)], limits: limits)
    #expect(pack.rules.map(\.id) == ["fine"])
  }
}
