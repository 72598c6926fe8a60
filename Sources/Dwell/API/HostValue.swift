/// A value an app hands to rule scripts as `host.name`: a string, number, boolean, list or
/// table of them; a number, string or Boolean is written as a literal.
///
/// ```swift
/// tracker.setHostValue("level", 3)
/// tracker.setHostValue("subscriber", true)
/// tracker.setHostValue("badges", .list(["owl", "lark"]))
/// ```
public enum HostValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case list([HostValue])
  case table([String: HostValue])

  /// The value as the JSON tree scripts receive (tables with their keys sorted).
  package var json: JSONValue {
    switch self {
    case .null: return .null
    case .bool(let value): return .bool(value)
    case .number(let value):
      let literal = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
      return .number(value, literal: literal)
    case .string(let value): return .string(value)
    case .list(let values): return .array(values.map(\.json))
    case .table(let members): return .object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) })
    }
  }

  /// The value a script handed back (an object's repeated key: the last one).
  package init(_ json: JSONValue) {
    switch json {
    case .null: self = .null
    case .bool(let value): self = .bool(value)
    case .number(let value, _): self = .number(value)
    case .string(let value): self = .string(value)
    case .array(let values): self = .list(values.map(HostValue.init))
    case .object(let members):
      self = .table(Dictionary(members.map { ($0.key, HostValue($0.value)) }, uniquingKeysWith: { _, last in last }))
    }
  }
}

extension HostValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByStringLiteral
{
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  public init(floatLiteral value: Double) { self = .number(value) }
  public init(stringLiteral value: String) { self = .string(value) }
}
