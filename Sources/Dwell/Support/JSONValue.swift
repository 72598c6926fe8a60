/// A JSON value as a tree, for what a fixed `Codable` type cannot describe: rule files
/// (repeated and unknown keys are errors there, and reported by name), trace lines, and the
/// values Lua scripts exchange with the app. Numbers keep their literal text so exact
/// decimals survive; objects keep their members in order, repeats included.
package enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Double, literal: String)
  case string(String)
  case array([JSONValue])
  case object([(key: String, value: JSONValue)])

  package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
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
  package subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.key == key }?.value
  }

  /// A short name of the value's type, for error messages.
  package var typeName: String {
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

extension JSONValue {
  /// A number from nanoseconds, as seconds with at most millisecond precision.
  package static func seconds(_ nanos: Int64) -> JSONValue {
    .number(Double(nanos) / 1e9, literal: JSONWriter.seconds(nanos))
  }

  /// An integer number.
  package static func integer(_ value: Int) -> JSONValue { .number(Double(value), literal: String(value)) }
}
