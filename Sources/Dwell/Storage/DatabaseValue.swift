// The Swift values a statement binds.
internal import CSQLite
internal import Foundation

/// A Swift value that binds to a statement parameter. Only these types conform, so a value
/// SQLite cannot store is a compile error, not a silent `NULL`.
protocol DatabaseValue {
  /// Binds the value at the 1-based `index`; returns SQLite's result code.
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32
}
