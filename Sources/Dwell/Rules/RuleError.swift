/// A rule or rules file that cannot be used, with the rule it concerns.
public struct RuleError: Error, CustomStringConvertible, Sendable, Equatable {
  /// The rule's id, or `#N` (1-based position) when it has no usable id.
  public var rule: String?
  /// What is wrong.
  public var message: String
  /// The file, if known.
  public var file: String?
  /// The line, if known.
  public var line: Int?

  /// Creates an error.
  package init(rule: String? = nil, _ message: String, file: String? = nil, line: Int? = nil) {
    self.rule = rule
    self.message = message
    self.file = file
    self.line = line
  }

  public var description: String {
    var location = ""
    if let file { location = line.map { "\(file):\($0): " } ?? "\(file): " }
    // Ids, file names and messages may come from a rule pack: shown as one plain line.
    if let rule { return escapingControls("\(location)rule '\(rule)': \(message)") }
    return escapingControls(location + message)
  }
}
