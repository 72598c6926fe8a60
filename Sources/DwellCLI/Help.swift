// The help text of the tool and of each command.

/// Formatting of help text: word wrapping and two-column tables.
enum Help {
  static let width = 80

  /// `prefix` then the words of `text`, wrapped at ``width`` columns, continuation lines
  /// indented by `indent` spaces.
  static func wrap(_ text: String, after prefix: String = "", indent: Int) -> String {
    wrap(words: text.split(separator: " ").map(String.init), after: prefix, indent: indent)
  }

  /// `prefix` then `words` (each kept whole), wrapped as ``wrap(_:after:indent:)`` does.
  static func wrap(words: [String], after prefix: String, indent: Int) -> String {
    var lines: [String] = []
    var line = prefix
    var empty = true
    for word in words {
      if !empty && line.count + 1 + word.count > width {
        lines.append(line)
        line = String(repeating: " ", count: indent) + word
      } else {
        line += (empty || line.hasSuffix(" ") ? "" : " ") + word
      }
      empty = false
    }
    lines.append(line)
    return lines.joined(separator: "\n")
  }

  /// Rows of `name  description`, indented two spaces, the descriptions aligned and wrapped.
  static func table(_ rows: [(String, String)]) -> String {
    let column = (rows.map(\.0.count).max() ?? 0) + 2
    return rows.map { name, description in
      let head = "  " + name + String(repeating: " ", count: column - name.count)
      return wrap(description, after: head, indent: head.count)
    }.joined(separator: "\n")
  }
}
