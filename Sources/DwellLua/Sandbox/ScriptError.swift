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

extension ScriptError {
  /// The place `message` starts with, Lua's `file:line:`, split from the text after it (its
  /// leading spaces dropped); nil when it names no place. The file is `file` when given and
  /// the message starts with it (a name may hold spaces and colons), otherwise a name
  /// without a space (as the C side, `dwell_lua_placed`, reads it).
  static func place<S: StringProtocol>(
    of message: S, file: String? = nil
  ) -> (file: S.SubSequence, line: Int, text: S.SubSequence)? {
    func split(after name: S.Index) -> (file: S.SubSequence, line: Int, text: S.SubSequence)? {
      let rest = message[message.index(after: name)...]
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      guard !digits.isEmpty, digits.count < 10, digits.endIndex < rest.endIndex, rest[digits.endIndex] == ":",
        let line = Int(digits)
      else { return nil }
      return (message[..<name], line, rest[rest.index(after: digits.endIndex)...].drop { $0 == " " })
    }
    if let file, message.hasPrefix(file + ":") {
      return split(after: message.index(message.startIndex, offsetBy: file.count))
    }
    var index = message.startIndex
    while let colon = message[index...].prefix(200).firstIndex(of: ":") {
      if colon == message.startIndex || message[..<colon].contains(" ") { return nil }
      if let place = split(after: colon) { return place }
      index = message.index(after: colon)
    }
    return nil
  }
}
