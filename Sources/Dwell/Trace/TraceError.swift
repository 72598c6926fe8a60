// Why a trace was refused, with its line.
internal import Foundation

/// A trace that breaks the format of <doc:Accounting>, with the line it breaks on.
package struct TraceError: Error, CustomStringConvertible, Sendable, Equatable {
  /// The 1-based line number.
  package var line: Int
  /// What is wrong.
  package var reason: String

  /// Creates an error.
  package init(line: Int, _ reason: String) {
    self.line = line
    self.reason = reason
  }

  package var description: String { "line \(line): \(reason)" }
}
