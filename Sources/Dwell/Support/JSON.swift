/// A parsed JSON value. Numbers keep their literal text so exact decimals survive.
///
/// Dwell parses traces and rules with this small parser instead of `JSONSerialization`:
/// it keeps key order, tells integers from fractions, rejects `NaN`, and behaves the same
/// on every platform.
public enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Double, literal: String)
  case string(String)
  case array([JSONValue])
  case object([(key: String, value: JSONValue)])

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let a, _), .number(let b, _)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: return false
    }
  }

  /// The value for `key` in an object (the last one if repeated).
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.key == key }?.value
  }

  /// A short name of the value's type, for error messages.
  public var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

/// A JSON syntax error with the byte offset where it was found.
public struct JSONError: Error, CustomStringConvertible, Sendable {
  /// What is wrong.
  public var message: String
  /// Offset in the input, in bytes.
  public var offset: Int
  public var description: String { "\(message) at offset \(offset)" }
}

/// Parses JSON text (RFC 8259). Nesting deeper than 512 levels is rejected.
public struct JSONParser {
  private let bytes: [UInt8]
  private var index = 0
  private var depth = 0

  /// Parses one complete JSON document.
  public static func parse(_ text: some StringProtocol) throws(JSONError) -> JSONValue {
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
        if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "u")
        {
          index += 2
          let low = try hex4()
          if (0xDC00..<0xE000).contains(low) {
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
        }
        result.unicodeScalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
      default: throw fail("invalid escape")
      }
      runStart = index
    }
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

/// Writes JSON text with sorted keys and numbers rounded to the millisecond where asked.
struct JSONWriter {
  private(set) var text = ""
  let pretty: Bool
  private var level = 0

  init(pretty: Bool) { self.pretty = pretty }

  static func quote(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// Seconds from nanoseconds, printed with at most three decimals.
  static func seconds(_ nanos: Int64) -> String {
    let millis = (nanos >= 0 ? nanos + 500_000 : nanos - 500_000) / 1_000_000
    let whole = millis / 1000
    let frac = abs(millis % 1000)
    let sign = millis < 0 && whole == 0 ? "-" : ""
    if frac == 0 { return "\(sign)\(whole).0" }
    var digits = String(frac)
    digits = String(repeating: "0", count: 3 - digits.count) + digits
    while digits.hasSuffix("0") { digits.removeLast() }
    return "\(sign)\(whole).\(digits)"
  }

  static func render(_ value: JSONValue, pretty: Bool) -> String {
    var writer = JSONWriter(pretty: pretty)
    writer.write(value)
    return writer.text
  }

  private mutating func newline() {
    guard pretty else { return }
    text += "\n" + String(repeating: "  ", count: level)
  }

  mutating func write(_ value: JSONValue) {
    switch value {
    case .null: text += "null"
    case .bool(let b): text += b ? "true" : "false"
    case .number(_, let literal): text += literal
    case .string(let s): text += Self.quote(s)
    case .array(let items):
      text += "["
      level += 1
      for (i, item) in items.enumerated() {
        if i > 0 { text += "," }
        newline()
        write(item)
      }
      level -= 1
      if !items.isEmpty { newline() }
      text += "]"
    case .object(let members):
      text += "{"
      level += 1
      for (i, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
        if i > 0 { text += "," }
        newline()
        text += Self.quote(member.key) + (pretty ? ": " : ":")
        write(member.value)
      }
      level -= 1
      if !members.isEmpty { newline() }
      text += "}"
    }
  }
}

extension JSONValue {
  /// A number from nanoseconds, as seconds with at most millisecond precision.
  static func seconds(_ nanos: Int64) -> JSONValue {
    .number(Double(nanos) / 1e9, literal: JSONWriter.seconds(nanos))
  }

  /// An integer number.
  static func integer(_ value: Int) -> JSONValue { .number(Double(value), literal: String(value)) }
}

extension JSONValue {
  /// The value as JSON text, keys sorted.
  public func rendered(pretty: Bool = false) -> String { JSONWriter.render(self, pretty: pretty) }
}
