import Dwell
import DwellLua
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
}
