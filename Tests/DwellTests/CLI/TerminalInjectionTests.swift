import Dwell
import DwellLua
import Foundation
import Testing

/// Text from a rule pack (ids, level names, file names, unknown keys) reaches terminals and
/// logs. It is refused where it is defined when it has a control character, and a message
/// quoting it shows it escaped, so a pack cannot clear a screen or fake a line.
@Suite struct TerminalInjectionTests {
  static let hostile = ["a\u{1B}[2J", "b\nFAKE: Unlocked premium", "c\u{7}", "d\u{202E}txt.exe", "e\u{2028}f"]

  @Test(arguments: hostile)
  func anIdWithAControlCharacterIsRefusedInEveryForm(id: String) throws {
    let json = #"[{"id": "ok", "when": {"sessions": 1}}, {"id": \#(JSONWriter.quote(id)), "when": {"sessions": 2}}]"#
    #expect {
      try Rule.parseJSON(json, file: "rules.json")
    } throws: { error in
      let said = "\(error)"
      return said.contains("control character") && !said.unicodeScalars.contains(where: isControl)
    }
    var configuration = Tracker.Configuration()
    configuration.rules = [Rule(id, when: .sessions(1))]
    #expect(throws: ConfigurationError.self) { try configuration.validate() }
  }

  @Test(arguments: hostile)
  func aLevelNameWithAControlCharacterIsRefused(name: String) {
    let script = "levels { { \"Zero\", 0 }, { \(Self.luaQuoted(name)), 10 } }"
    #expect(throws: RuleError.self) { try LuaRulePack(scripts: [("p.lua", script)]) }
  }

  /// `text` as a Lua string literal, its control characters as `\u{XX}` escapes.
  static func luaQuoted(_ text: String) -> String {
    let body = text.unicodeScalars.map { isControl($0) ? "\\u{\(String($0.value, radix: 16))}" : String($0) }
    return "\"" + body.joined() + "\""
  }

  @Test func levelNamesAreNamesOnce() {
    for script in [#"levels { { "", 0 } }"#, #"levels { { "A", 0 }, { "A", 10 } }"#] {
      #expect(throws: RuleError.self) { try LuaRulePack(scripts: [("p.lua", script)]) }
    }
  }

  @Test(arguments: hostile)
  func aMessageShowsWhatItQuotesEscaped(text: String) {
    let error = RuleError(rule: text, "unknown key '\(text)'", file: "\(text).lua", line: 3)
    #expect(!error.description.unicodeScalars.contains(where: isControl))
    #expect(error.description.contains("\\"))
  }

  /// The tool's terminal lines that show a pack's or a persona file's text (a condition's
  /// screen name in 'rules check', persona names in the balance table, a scenario's file
  /// name in 'dwell test') show it escaped: no control character reaches the terminal.
  @Test func theToolsLinesShowPackTextEscaped() throws {
    let directory = TemporaryStore()
    let pack = directory.directory + "/pack"
    try FileManager.default.createDirectory(atPath: pack + "/tests", withIntermediateDirectories: true)
    try #"unlock "s" { when = { screen = "\27[2J\27]0;pwned\7", seconds = 1 } }"#.write(
      toFile: pack + "/pack.lua", atomically: true, encoding: .utf8)
    try "open Lessons\nexpect unlocked s\n".write(
      toFile: pack + "/tests/a\u{1B}[2J\nFAKE.scenario", atomically: true, encoding: .utf8)
    let json = directory.directory + "/rules.json"
    try #"[{"id":"s","when":{"screen":"\u001b[2J\u009b31m\u2028","seconds":1}}]"#.write(
      toFile: json, atomically: true, encoding: .utf8)
    let personas = directory.directory + "/personas.lua"
    try #"""
    local screens = { Home = { stay = 10, next = { Lessons = 1 } }, Lessons = { stay = 60, next = { Home = 1 } } }
    persona "\27[2J\27]0;pwned\7\nFAKE" { screens = screens }
    persona "b\226\128\168c" { screens = screens, share = 2 }
    """#.write(toFile: personas, atomically: true, encoding: .utf8)
    let runs = [
      ["rules", "check", pack], ["rules", "check", json], ["test", pack],
      ["balance", BalanceTests.path("rules/learning"), "--personas", personas, "--users", "4", "--days", "1"],
    ]
    for arguments in runs {
      let run = try CommandLineTests.dwell(arguments)
      let said = "dwell \(arguments.joined(separator: " ")): \(run.stdout)"
      #expect(!run.stdout.unicodeScalars.contains { isControl($0) && $0 != "\n" }, "\(said)")
      #expect(!run.stdout.split(separator: "\n").contains { $0.hasPrefix("FAKE") }, "\(said)")
      #expect(run.stdout.contains("\\u{1B}[2J"), "\(said)")
    }
  }

  /// An error message quoting what the user gave (a path, a screen) is one escaped line.
  @Test func errorMessagesQuoteTheUsersTextEscaped() throws {
    let directory = TemporaryStore()
    let hostile = directory.directory + "/a\u{1B}[2J\nFAKE: done"
    let runs = [
      ["report", hostile + ".sqlite"], ["replay", hostile + ".jsonl"], ["rules", "check", hostile + ".lua"],
      ["sim", "--rules", BalanceTests.path("rules/learning"), "--script", hostile + ".sim"],
    ]
    for arguments in runs {
      let run = try CommandLineTests.dwell(arguments)
      let said = "dwell \(arguments.joined(separator: " ")): \(run.status) \(run.stderr)"
      #expect(run.status != 0, "\(said)")
      #expect(run.stderr.hasSuffix("\n") && run.stderr.filter { $0 == "\n" }.count == 1, "\(said)")
      #expect(!run.stderr.dropLast().unicodeScalars.contains(where: isControl), "\(said)")
      #expect(run.stderr.contains("a\\u{1B}[2J\\nFAKE: done"), "\(said)")
    }
  }
}
