// The line of the key a load error is about: Lua knows only the line a definition starts at,
// so a mistake on line 5 of a rule was said at its line 1.
internal import Foundation

extension LuaDefinitions {
  /// The line in `source` of the key `message` is about, within the definition starting at
  /// `line`: the first key the message quotes (`'hours'`) written as `key =` in that
  /// definition's table (in the tier the message names, if it names one); `line` when none.
  ///
  /// ```
  /// unlock "a" {          -- line 1: where Lua places the call
  ///   when = { hours = 2 }  -- line 2: where "unknown key 'hours'" is placed
  /// }
  /// ```
  static func keyLine(of message: String, from line: Int, in source: String) -> Int {
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    guard line >= 1, line <= lines.count, lines.count <= 1_000_000 else { return line }
    let end = tableEnd(from: line, in: lines)
    var start = line
    // "tier 'gold': ..." is about the tier's own table, which starts where its name is.
    if message.hasPrefix("tier '"), let tier = quoted(message).first,
      let at = (start...end).first(where: {
        lines[$0 - 1].contains("\"\(tier)\"") || lines[$0 - 1].contains("'\(tier)'")
      })
    {
      start = at
    }
    for key in quoted(message) where key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
      if let at = (start...end).first(where: { Self.writes(key, lines[$0 - 1]) }) { return at }
    }
    return line
  }

  /// The words `message` puts in single quotes, in order.
  private static func quoted(_ message: String) -> [String] {
    message.split(separator: "'", omittingEmptySubsequences: false).enumerated()
      .compactMap { $0.offset % 2 == 1 ? String($0.element) : nil }
  }

  /// Whether `text` (a line, up to a comment) assigns `key`: `key =`, not `key ==`.
  private static func writes(_ key: String, _ text: Substring) -> Bool {
    let code = text.range(of: "--").map { text[..<$0.lowerBound] } ?? text
    var rest = code[...]
    while let found = rest.range(of: key) {
      let before = found.lowerBound == code.startIndex ? nil : code[code.index(before: found.lowerBound)]
      let after = code[found.upperBound...].drop { $0 == " " || $0 == "\t" }
      let starts = before.map { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "\"" || $0 == "'") } ?? true
      if starts, after.hasPrefix("="), !after.hasPrefix("==") { return true }
      rest = code[found.upperBound...]
    }
    return false
  }

  /// The last line of the table opened on or after `line`: where its braces balance again
  /// (counting roughly, strings aside), or the file's end.
  private static func tableEnd(from line: Int, in lines: [Substring]) -> Int {
    var depth = 0
    var opened = false
    for number in line...lines.count {
      var quote: Character?
      var previous: Character?
      for character in lines[number - 1] {
        defer { previous = character }
        if quote == nil, character == "-", previous == "-" { break }
        if let open = quote {
          if character == open { quote = nil }
          continue
        }
        switch character {
        case "\"", "'": quote = character
        case "{":
          depth += 1
          opened = true
        case "}": depth -= 1
        default: break
        }
        if opened, depth <= 0 { return number }
      }
    }
    return lines.count
  }
}
