// Escaping text scalar by scalar, for the writers of JSON (JSONWriter) and XML (the
// harness's JUnit report): one loop, each format with its own table; and for terminals
// and logs, text that came from a rule pack, a trace or an app shown as one plain line.

extension String {
  /// The string with each scalar found in `table` replaced by its entry, and each other
  /// scalar for which `other` returns text replaced by that text.
  ///
  /// ```swift
  /// "a<b".escapingScalars(["<": "&lt;"])   // "a&lt;b"
  /// ```
  package func escapingScalars(
    _ table: [Unicode.Scalar: String], other: (Unicode.Scalar) -> String? = { _ in nil }
  ) -> String {
    var out = ""
    out.reserveCapacity(utf8.count)
    for scalar in unicodeScalars {
      if let replacement = table[scalar] ?? other(scalar) {
        out += replacement
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

/// `text` with control characters (newline, ESC, NUL, DEL...) and bidirectional overrides
/// written as `\n`, `\t`, `\r` or `\u{1B}`, so it shows as one line of what it is.
package func escapingControls<S: StringProtocol>(_ text: S) -> String {
  guard text.unicodeScalars.contains(where: isControl) else { return String(text) }
  var escaped = ""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\n": escaped += "\\n"
    case "\t": escaped += "\\t"
    case "\r": escaped += "\\r"
    case _ where isControl(scalar): escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
    default: escaped.unicodeScalars.append(scalar)
    }
  }
  return escaped
}

/// Whether `scalar` is a control character or changes the direction of the text around it.
package func isControl(_ scalar: Unicode.Scalar) -> Bool {
  switch scalar.value {
  case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: return true
  // Line and paragraph separators end a line in some terminals and editors.
  case 0x2028, 0x2029: return true
  default: return false
  }
}
