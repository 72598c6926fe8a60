// Lua's syntax errors said the way its parser means them: what it expected, near what, and
// the fix where the mistake is certain (a missing ',' between fields, a bracket never closed).
internal import Foundation

extension LuaDefinitions {
  /// `message` (Lua's `file:line: ... near T`) rewritten for a designer; other messages
  /// are returned as they are. `source` is the script, to find a bracket left open when
  /// Lua only says the file ended.
  ///
  /// ```
  /// p.lua:3: '}' expected (to close '{' at line 1) near 'name'
  /// p.lua:3: expected '}' or ',' near 'name': add a ',' before 'name' (the table opened at line 1)
  /// ```
  static func explainSyntax(_ message: String, source: String, file: String? = nil) -> String {
    guard let (file, line, text) = ScriptError.place(of: message, file: file) else { return message }
    if text.hasPrefix("unfinished string near ") {
      return "\(file):\(line): a string is not closed: end it with the quote it starts with, on the same line"
    }
    if let reserved = reservedKey(onLine: line, in: source) { return "\(file):\(line): \(reserved)" }
    if text == "syntax error near ','" {
      return "\(file):\(line): a ',' after a definition: remove it (definitions follow one another without commas)"
    }
    guard let error = SyntaxError(text) else { return message }
    if error.near == "<eof>" {
      if let opened = error.opened {
        return
          "\(file):\(opened.line): the \(opened.token) opened here is never closed; add \(error.expected ?? "its end")"
      }
      if let open = unclosedBracket(in: source) {
        return "\(file):\(open.line): the '\(open.bracket)' opened here is never closed; add '\(open.closer)'"
      }
      if let expected = error.expected { return "\(file):\(line): expected \(expected) before the end of the file" }
      return message
    }
    let near = error.near
    let table = error.opened.map { " (the \($0.token == "'{'" ? "table" : $0.token) opened at line \($0.line))" } ?? ""
    switch error.expected {
    case "'}'":
      let hint = startsValue(near) ? ": add a ',' before \(near)" : ""
      return "\(file):\(line): expected '}' or ',' near \(near)\(hint)\(table)"
    case "')'":
      let hint = near == "'='" ? comparing : startsValue(near) ? ": add a ',' before \(near)" : ""
      return "\(file):\(line): expected ')' or ',' near \(near)\(hint)\(table)"
    case .some(let expected):
      return "\(file):\(line): expected \(expected) near \(near)\(near == "'='" ? comparing : "")\(table)"
    case nil:
      return unexpected(near, file: file, line: line, source: source) ?? message
    }
  }

  /// Lua's "unexpected symbol near T" for a closing bracket or a ',': a value is missing
  /// before it (`f(a,)`, `title = ,`), or the bracket cannot close the one open there
  /// (`when = { a = 1, )`). `nil` for another token, or when the line does not show it.
  private static func unexpected(_ near: String, file: Substring, line: Int, source: String) -> String? {
    let openers: [Character: Character] = [")": "(", "}": "{", "]": "["]
    guard near.count == 3, near.hasPrefix("'"), near.hasSuffix("'"), let token = near.dropFirst().first,
      token == "," || openers[token] != nil,
      let (previous, previousLine, open) = before(token, onLine: line, in: source)
    else { return nil }
    let said = "\(file):\(line): unexpected \(near)"
    if previous == "=" { return "\(said): a value is missing after '='" }
    // A ',' left at the end of a line: said at its own line, not the bracket's below it.
    if previous == ",", token != ",", previousLine < line {
      return "\(file):\(previousLine): the ',' at the end of this line leaves a value out before the "
        + "\(near) on line \(line); remove the ','"
    }
    if let open, let opener = openers[token], open.bracket != opener, let closer = closers[open.bracket] {
      return "\(said): it cannot close the '\(open.bracket)' opened at line \(open.line); write '\(closer)'"
    }
    switch (previous, token) {
    case (",", ","): return "\(said): a value is missing between two ','; remove one"
    case (",", _): return "\(said): the ',' before it leaves a value out; remove the ',' (write f(a), not f(a,))"
    default: return "\(said): a value is missing before it"
    }
  }

  private static let closers: [Character: Character] = ["{": "}", "(": ")", "[": "]"]

  /// A word Lua reserves written as a key on `line` (`repeat = "daily"`), said with the key
  /// to write instead: Lua itself says only "unexpected symbol" there.
  /// Line `number` (1 is the first) of `source`, without its newline; `nil` past the end.
  static func line(_ number: Int, of source: String) -> Substring? {
    let bytes = source.utf8
    var start = bytes.startIndex
    for _ in 1..<max(number, 1) {
      guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
      start = bytes.index(after: newline)
    }
    let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
    return source[start..<end]
  }

  static func reservedKey(onLine line: Int, in source: String) -> String? {
    // The one line, found from the bytes: splitting a file of 100,000 lines for it took
    // longer than the load it explains (after the load's time limit, uncounted).
    guard line >= 1, let found = Self.line(line, of: source) else { return nil }
    var text = found.prefix(4096)
    if let comment = text.range(of: "--") { text = text[..<comment.lowerBound] }
    var index = text.startIndex
    while index < text.endIndex {
      guard text[index].isLetter || text[index] == "_" else {
        index = text.index(after: index)
        continue
      }
      let word = text[index...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      let after = text[word.endIndex...].drop { $0 == " " || $0 == "\t" }
      index = word.endIndex
      guard luaKeywords.contains(String(word)), after.hasPrefix("="), !after.hasPrefix("==") else { continue }
      let said = "'\(word)' is a word Lua reserves, so it cannot be a key"
      guard let key = reservedAlternatives[String(word)] else {
        return "\(said); no Dwell key is named '\(word)' (the Lua guide lists each table's keys)"
      }
      var value = after.dropFirst().trimmingCharacters(in: .whitespacesAndNewlines)
      if value.hasSuffix(",") { value.removeLast() }
      let shown = value.isEmpty || value.count > 40 ? "..." : value
      return "\(said): the key is '\(key)'; write \(key) = \(shown)"
    }
    return nil
  }

  /// Lua's reserved words.
  static let luaKeywords: Set<String> = blockWords.union(["false", "function", "nil", "not", "true"])

  /// The Dwell key a reserved word used as a key stands for.
  private static let reservedAlternatives = ["repeat": "every", "until": "to"]

  /// The first `token` on `line` of `source` right after what needs a value next (a ',',
  /// '=', an opening bracket or an operator), or else its first `token`: the significant
  /// character before it and the innermost bracket open there, skipping strings and comments.
  static func before(
    _ token: Character, onLine line: Int, in source: String
  ) -> (previous: Character?, previousLine: Int, open: (bracket: Character, line: Int)?)? {
    var open: [(bracket: Character, line: Int)] = []
    var previous: Character?
    var previousLine = line
    var first: (previous: Character?, previousLine: Int, open: (bracket: Character, line: Int)?)?
    var scanner = LuaScanner(source)
    while let (character, at) = scanner.next(), at <= line {
      if at == line, character == token {
        if let previous, ",=([{+-*/%^<>~#&|.".contains(previous) { return (previous, previousLine, open.last) }
        if first == nil { first = (previous, previousLine, open.last) }
      }
      if closers[character] != nil {
        open.append((character, at))
      } else if closers.values.contains(character), !open.isEmpty {
        open.removeLast()
      }
      if !character.isWhitespace { (previous, previousLine) = (character, at) }
    }
    return first
  }

  private static let comparing = ": to compare two values, write '=='"

  /// Lua's `X expected (to close Y at line N) near T`, or `unexpected symbol near T`.
  private struct SyntaxError {
    var expected: String?
    var opened: (token: String, line: Int)?
    var near: String

    init?(_ text: Substring) {
      guard let nearRange = text.range(of: " near ") else { return nil }
      near = String(text[nearRange.upperBound...])
      var what = text[..<nearRange.lowerBound].trimmingPrefix(" ")
      if let close = what.range(of: " (to close "), what.hasSuffix(")") {
        let inside = what[close.upperBound..<what.index(before: what.endIndex)]
        guard let at = inside.range(of: " at line "), let line = Int(inside[at.upperBound...]) else { return nil }
        opened = (String(inside[..<at.lowerBound]), line)
        what = what[..<close.lowerBound]
      }
      if what.hasSuffix(" expected") {
        expected = String(what.dropLast(" expected".count))
      } else if what != "unexpected symbol" {
        return nil
      }
    }
  }

  /// Whether the token Lua stopped at can begin a value: a name (not a block keyword), a
  /// string, a number or a bracket, which a ',' would have made the next field or argument.
  private static func startsValue(_ near: String) -> Bool {
    guard near.hasPrefix("'"), near.hasSuffix("'"), near.count > 2 else { return false }
    let token = near.dropFirst().dropLast()
    guard let first = token.first else { return false }
    if first.isLetter || first == "_" { return !blockWords.contains(String(token)) }
    return first.isNumber || "\"'[{.#".contains(first)
  }

  private static let blockWords: Set<String> = [
    "and", "break", "do", "else", "elseif", "end", "for", "goto", "if", "in", "local", "or", "repeat", "return", "then",
    "until", "while",
  ]

  /// The innermost `{`, `(` or `[` that `source` never closes, with its line, skipping
  /// strings and comments; `nil` when every bracket is closed.
  static func unclosedBracket(in source: String) -> (bracket: Character, closer: Character, line: Int)? {
    let pairs = closers
    var open: [(bracket: Character, line: Int)] = []
    var scanner = LuaScanner(source)
    while let (character, line) = scanner.next() {
      if pairs[character] != nil {
        open.append((character, line))
      } else if pairs.values.contains(character), !open.isEmpty {
        open.removeLast()
      }
    }
    return open.last.flatMap { entry in pairs[entry.bracket].map { (entry.bracket, $0, entry.line) } }
  }
}

/// The characters of Lua code outside strings and comments, each with its line; a string is
/// one `"` (a value), a comment nothing.
private struct LuaScanner {
  private let characters: [Character]
  private var index = 0
  private var line = 1

  init(_ source: String) { characters = Array(source) }

  mutating func next() -> (Character, Int)? {
    while index < characters.count {
      let character = characters[index]
      if character == "-", peek(1) == "-" {
        index += 2
        if let level = longBracket() { skipLong(level) } else { skip { $0 != "\n" } }
      } else if character == "[", let level = longBracket() {
        skipLong(level)
        return ("\"", line)
      } else if character == "\"" || character == "'" {
        index += 1
        skipString(character)
        return ("\"", line)
      } else {
        index += 1
        if character == "\n" { line += 1 }
        return (character, line)
      }
    }
    return nil
  }

  private func peek(_ offset: Int) -> Character? {
    index + offset < characters.count ? characters[index + offset] : nil
  }

  /// At `[` followed by `=`s and `[`: the number of `=`s, having moved past it.
  private mutating func longBracket() -> Int? {
    guard peek(0) == "[" else { return nil }
    var level = 0
    while peek(1 + level) == "=" { level += 1 }
    guard peek(1 + level) == "[" else { return nil }
    index += level + 2
    return level
  }

  private mutating func skipLong(_ level: Int) {
    let closing: [Character] = ["]"] + Array(repeating: "=", count: level) + ["]"]
    while index < characters.count {
      if characters[index...].starts(with: closing) {
        index += closing.count
        return
      }
      if characters[index] == "\n" { line += 1 }
      index += 1
    }
  }

  private mutating func skipString(_ quote: Character) {
    while index < characters.count, characters[index] != quote, characters[index] != "\n" {
      if characters[index] == "\\", peek(1) == "\n" { line += 1 }
      index += characters[index] == "\\" ? 2 : 1
    }
    index += 1
  }

  private mutating func skip(while condition: (Character) -> Bool) {
    while index < characters.count, condition(characters[index]) { index += 1 }
  }
}
