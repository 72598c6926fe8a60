// Why a JSON text was refused, with its place.

/// A JSON syntax error with the byte offset where it was found.
package struct JSONError: Error, CustomStringConvertible, Sendable {
  /// What is wrong.
  package var message: String
  /// Offset in the input, in bytes.
  package var offset: Int
  package var description: String { "\(message) at offset \(offset)" }
}
