import Foundation
import Testing

@testable import Dwell

/// Loading a JSON rules file costs work in proportion to the file, not to the file times its rules.
@Suite struct JSONRulesScaleTests {
  static func rules(_ count: Int, pretty: Bool) -> String {
    let items = (0..<count).map { i in
      pretty
        ? "  {\n    \"id\": \"r\(i)\",\n    \"when\": {\"appSeconds\": \(i)}\n  }"
        : #"{"id":"r\#(i)","when":{"appSeconds":0}}"#
    }
    return "[\n" + items.joined(separator: ",\n") + "\n]"
  }

  /// Finding every rule's line reads each byte once (it read the text up to each rule again).
  @Test(arguments: [false, true])
  func findingTheLinesOf20000RulesReadsTheFileOnce(pretty: Bool) {
    let text = Self.rules(20_000, pretty: pretty)
    let lines = RuleLines(text: text)
    #expect(lines.bytesRead <= text.utf8.count + 1)
    #expect(lines.line(of: 0) == (pretty ? 3 : 2))
    #expect(lines.line(of: 19_999) == (pretty ? 2 + 19_999 * 4 + 1 : 20_001))
  }

  @Test func twentyThousandRulesLoadAndTheLastOneIsNamedAtItsLine() throws {
    let text = Self.rules(20_000, pretty: true)
    #expect(try Rule.parseJSON(text).count == 20_000)
    let bad = text.replacingOccurrences(of: #""appSeconds": 19999"#, with: #""appSecs": 19999"#)
    #expect {
      try Rule.parseJSON(bad, file: "r.json")
    } throws: { error in
      (error as? RuleError)?.description.hasPrefix("r.json:79999: rule 'r19999': unknown key 'appSecs'") == true
    }
  }

  /// Lines are those of the `"id"` key, whatever else the rule's strings hold.
  @Test func linesIgnoreLookAlikesInStringsAndNestedObjects() {
    let text = #"""
      [{"title": "\"id\": \"x\"", "when": {"id": 1},
        "id": "a"},
       {"id": "b"}, 3, {"x": [1, {"id": "c"}]},
       {"\u0069d": "d"}, {"id"
      : "e"}]
      """#
    let lines = RuleLines(text: text)
    #expect((0..<7).map { lines.line(of: $0) } == [2, 3, nil, nil, nil, 4, nil])
  }
}
