// Escaping text scalar by scalar, for the writers of JSON (JSONWriter) and XML (the
// harness's JUnit report): one loop, each format with its own table.

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
