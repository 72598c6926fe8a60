// The error a rule pack's script raised, or the limit it hit, as the host reports it.

/// An error raised by a script, or a script that could not be loaded or hit a limit.
public struct ScriptError: Error, CustomStringConvertible, Sendable, Equatable {
  /// Lua's message, usually starting with `file:line:`; at most
  /// ``ScriptLimits/messageLength`` characters.
  public var message: String
  /// The rule it concerns, if any.
  public var rule: String?
  /// Set when the pack's budget per tick ran out during the call (not the call's own).
  var packBudget = false

  /// Creates an error.
  public init(_ message: String, rule: String? = nil) {
    self.message = message
    self.rule = rule
  }

  public var description: String {
    guard let rule, !message.contains("'\(rule)'") else { return message }
    return "\(message) (rule '\(rule)')"
  }

  public static func == (a: ScriptError, b: ScriptError) -> Bool { a.message == b.message && a.rule == b.rule }
}
