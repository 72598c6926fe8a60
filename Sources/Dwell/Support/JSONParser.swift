/// Parses JSON text (RFC 8259) into a ``JSONValue`` tree, and the error it throws.
/// Parses JSON text (RFC 8259). Nesting deeper than 512 levels is rejected; a surrogate
/// escape without its partner becomes U+FFFD; numbers beyond `Double` are errors.
package struct JSONParser {
  private let bytes: [UInt8]
  private var index = 0
  private var depth = 0

  /// Parses one complete JSON document.
  package static func parse(_ text: some StringProtocol) throws(JSONError) -> JSONValue {
    var parser = JSONParser(bytes: Array(text.utf8))
    parser.skipSpace()
    let value = try parser.value()
    parser.skipSpace()
    guard parser.index == parser.bytes.count else { throw parser.fail("unexpected text after the value") }
    return value
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  private func fail(_ message: String) -> JSONError { JSONError(message: message, offset: index) }

  private mutating func skipSpace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
  }

  private mutating func value() throws(JSONError) -> JSONValue {
    guard index < bytes.count else { throw fail("unexpected end of input") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw fail("unexpected character")
    }
  }

  private mutating func literal(_ word: String) throws(JSONError) {
    let expected = Array(word.utf8)
    let count = expected.count
    guard index + count <= bytes.count, bytes[index..<(index + count)].elementsEqual(expected) else {
      throw fail("invalid literal")
    }
    index += count
  }

  private mutating func nest() throws(JSONError) {
    depth += 1
    if depth > 512 { throw fail("nesting too deep") }
  }

  private mutating func object() throws(JSONError) -> JSONValue {
    try nest()
    defer { depth -= 1 }
    index += 1
    var members: [(key: String, value: JSONValue)] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key") }
      let key = try string()
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
      index += 1
      skipSpace()
      members.append((key, try value()))
      skipSpace()
      guard index < bytes.count else { throw fail("unexpected end of input") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      } else {
        throw fail("expected ',' or '}'")
      }
    }
  }

  private mutating func array() throws(JSONError) -> JSONValue {
    try nest()
    defer { depth -= 1 }
    index += 1
    var elements: [JSONValue] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipSpace()
      elements.append(try value())
      skipSpace()
      guard index < bytes.count else { throw fail("unexpected end of input") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      } else {
        throw fail("expected ',' or ']'")
      }
    }
  }

  private mutating func number() throws(JSONError) -> JSONValue {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    func digits(_ p: inout JSONParser) -> Int {
      let s = p.index
      while p.index < p.bytes.count, p.bytes[p.index] >= 48, p.bytes[p.index] <= 57 { p.index += 1 }
      return p.index - s
    }
    guard index < bytes.count else { throw fail("invalid number") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else if digits(&self) == 0 {
      throw fail("invalid number")
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits(&self) > 0 else { throw fail("invalid number") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        index += 1
      }
      guard digits(&self) > 0 else { throw fail("invalid number") }
    }
    let literal = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let value = Double(literal), value.isFinite else { throw fail("number out of range") }
    return .number(value, literal: literal)
  }

  private mutating func string() throws(JSONError) -> String {
    index += 1
    var scalars = String.UnicodeScalarView()
    var runStart = index
    var result = ""
    func flush(_ p: JSONParser, _ end: Int) -> String {
      String(decoding: p.bytes[runStart..<end], as: UTF8.self)
    }
    while true {
      guard index < bytes.count else { throw fail("unterminated string") }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        result += flush(self, index)
        index += 1
        return result
      }
      if byte < 0x20 { throw fail("control character in string") }
      if byte != UInt8(ascii: "\\") {
        index += 1
        continue
      }
      result += flush(self, index)
      index += 1
      guard index < bytes.count else { throw fail("unterminated string") }
      let escape = bytes[index]
      index += 1
      scalars.removeAll()
      switch escape {
      case UInt8(ascii: "\""): result += "\""
      case UInt8(ascii: "\\"): result += "\\"
      case UInt8(ascii: "/"): result += "/"
      case UInt8(ascii: "b"): result += "\u{8}"
      case UInt8(ascii: "f"): result += "\u{C}"
      case UInt8(ascii: "n"): result += "\n"
      case UInt8(ascii: "r"): result += "\r"
      case UInt8(ascii: "t"): result += "\t"
      case UInt8(ascii: "u"):
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code), let low = lowSurrogate() {
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        // A surrogate without its partner is not a character: U+FFFD stands for it alone.
        result.unicodeScalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
      default: throw fail("invalid escape")
      }
      runStart = index
    }
  }

  /// The low surrogate escaped next (`\uDC00` to `\uDFFF`), consumed; anything else is
  /// left where it is, to be read as what it is.
  private mutating func lowSurrogate() -> UInt32? {
    let start = index
    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
      return nil
    }
    index += 2
    if let low = try? hex4(), (0xDC00..<0xE000).contains(low) { return low }
    index = start
    return nil
  }

  private mutating func hex4() throws(JSONError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw fail("invalid \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let b = bytes[index]
      let digit: UInt32
      switch b {
      case 48...57: digit = UInt32(b - 48)
      case 65...70: digit = UInt32(b - 55)
      case 97...102: digit = UInt32(b - 87)
      default: throw fail("invalid \\u escape")
      }
      value = value * 16 + digit
      index += 1
    }
    return value
  }
}
