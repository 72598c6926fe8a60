// A JSON rules file's mistakes: each said at its line, with the rule and the fix.
import Dwell
import Foundation
import Testing

@Suite struct JSONRuleErrorTests {
  static let jsonCases: [(file: String, message: String)] = [
    (
      "[\n  {\"id\": \"a\", \"when\": {\"sessions\": 1}},\n  {\"id\": \"b\",\n   \"when\": {\"screen\": \"S\", \"visit\": 2}}\n]",
      "r.json:3: rule 'b': unknown key 'visit' (did you mean 'visits'?); a condition with screen takes screen, seconds, visits"
    ),
    (
      "[{\"id\": \"a\", \"wen\": {\"sessions\": 1}}]",
      "r.json:1: rule 'a': unknown key 'wen' (did you mean 'when'?); a rule takes description, every, from, id, title, to, when"
    ),
    (
      "[{\"id\": \"a\", \"when\": {\"sessions\": 1}},\n{\"id\": \"a\", \"when\": {\"sessions\": 2}}]",
      "r.json:2: rule 'a': the id is repeated; give each rule its own id"
    ),
    (
      "[{\"id\": \"a\", \"when\": {\"sessions\": 1}, \"when\": {\"sessions\": 2}}]",
      "r.json:1: rule '#1': key 'when' is given twice in one rule; keep one"
    ),
    (
      "[{\"id\": \"a\",\n \"id\": \"b\", \"when\": {\"sessions\": 1}}]",
      "r.json:1: rule '#1': key 'id' is given twice in one rule; keep one"
    ),
  ]

  @Test(arguments: jsonCases)
  func aBadJSONFileGetsItsExactMessage(file: String, message: String) {
    #expect {
      try Rule.parseJSON(file, file: "r.json")
    } throws: { error in
      (error as? RuleError)?.description == message
    }
  }
}
