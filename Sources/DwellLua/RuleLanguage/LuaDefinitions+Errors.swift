// How the rule language's load errors are said: the file, the line, the rule or tier, and the
// definitions left without their table.
internal import CLuaSandbox
internal import Dwell
internal import Foundation

extension LuaDefinitions {
  /// A definition that was named but never given its table (`unlock "a"` alone), found
  /// after every script ran.
  static func unfinished(_ state: LuaState) -> RuleError? {
    guard let (id, pending) = state.collector.pending.min(by: { $0.value.order < $1.value.order }) else { return nil }
    return ruleError(
      "\(pending.place) rule '\(id)': \(pending.kind) \"\(id)\" has no table; write \(pending.kind) \"\(id)\" { when = { ... } }",
      file: pending.file)
  }

  /// Splits Lua's `file:line: message` so the error names its file and line; a syntax
  /// error of `source` (the script) is said as Lua's parser means it (``explainSyntax``).
  /// The file is named once: `RuleError` puts `file` (the path) before the message, so the
  /// name Lua put in it (the last part of the path) is taken out, with or without a line.
  static func ruleError(_ message: String, file: String, source: String? = nil) -> RuleError {
    let chunk = file.split(separator: "/").last.map(String.init) ?? file
    let message = source.map { explainSyntax(message, source: $0, file: chunk) } ?? message
    guard let place = ScriptError.place(of: message, file: chunk) else {
      let bare = message.hasPrefix(chunk + ": ") ? String(message.dropFirst(chunk.count + 2)) : message
      return RuleError(bare, file: file)
    }
    let text = place.text.trimmingCharacters(in: .whitespaces)
    if text.hasPrefix("rule '"), let start = text.range(of: "rule '"),
      let end = text[start.upperBound...].firstIndex(of: "'")
    {
      let rule = String(text[start.upperBound..<end])
      let rest = text[text.index(after: end)...].trimmingCharacters(in: CharacterSet(charactersIn: ": "))
      let line = source.map { keyLine(of: rest, from: place.line, in: $0) } ?? place.line
      return RuleError(rule: rule, rest, file: file, line: line)
    }
    return RuleError(text, file: file, line: place.line)
  }

  struct DefinitionFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
  }

  /// A definition named (`unlock "a"`) and not yet given its table.
  struct Pending {
    var kind: String
    var place: String
    var file: String
    var order: Int
  }
}
