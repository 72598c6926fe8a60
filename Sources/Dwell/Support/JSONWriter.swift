/// Writes a ``JSONValue`` tree as JSON text, keys sorted, numbers as their literal text.
package struct JSONWriter {
  package private(set) var text = ""
  package let pretty: Bool
  private var level = 0

  package init(pretty: Bool) { self.pretty = pretty }

  /// `s` as a JSON string literal (RFC 8259: quote, backslash and controls escaped).
  package static func quote(_ s: String) -> String {
    // Most strings need no escape: one pass over the bytes, and the text as it is.
    let plain = s.utf8.withContiguousStorageIfAvailable { bytes in
      for byte in bytes where byte < 0x20 || byte == 0x22 || byte == 0x5C { return false }
      return true
    }
    if plain == true { return "\"" + s + "\"" }
    let escaped = s.escapingScalars(escapes) { scalar in
      guard scalar.value < 0x20 else { return nil }
      let hex = String(scalar.value, radix: 16)
      return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
    return "\"" + escaped + "\""
  }

  private static let escapes: [Unicode.Scalar: String] = [
    "\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
  ]

  /// Nanoseconds rounded to milliseconds, half away from zero (no overflow at the extremes).
  package static func milliseconds(_ nanos: Int64) -> Int64 {
    let (millis, rest) = nanos.quotientAndRemainder(dividingBy: 1_000_000)
    return rest >= 500_000 ? millis + 1 : rest <= -500_000 ? millis - 1 : millis
  }

  /// Seconds from nanoseconds, printed with at most three decimals.
  package static func seconds(_ nanos: Int64) -> String {
    let millis = milliseconds(nanos)
    let whole = millis / 1000
    let frac = abs(millis % 1000)
    let sign = millis < 0 && whole == 0 ? "-" : ""
    if frac == 0 { return "\(sign)\(whole).0" }
    var digits = String(frac)
    digits = String(repeating: "0", count: 3 - digits.count) + digits
    while digits.hasSuffix("0") { digits.removeLast() }
    return "\(sign)\(whole).\(digits)"
  }

  package static func render(_ value: JSONValue, pretty: Bool) -> String {
    var writer = JSONWriter(pretty: pretty)
    writer.write(value)
    return writer.text
  }

  private mutating func newline() {
    guard pretty else { return }
    text += "\n" + String(repeating: "  ", count: level)
  }

  package mutating func write(_ value: JSONValue) {
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
  /// The value as JSON text, keys sorted.
  package func rendered(pretty: Bool = false) -> String { JSONWriter.render(self, pretty: pretty) }
}
