// Splitting text into lines: the one splitter for every line-based input (traces, scenarios,
// sim scripts, rule files scanned by `dwell rules check`).

/// Splits text into lines ending at LF, CRLF or a lone CR, so a file saved on Windows
/// (CRLF) or by an old Mac editor (CR) has the same lines as one saved with LF.
///
/// Swift treats "\r\n" as one `Character`, so `split(separator: "\n")` does not split a CRLF
/// file at all: a scenario read that way was one line, and a test of it passed with nothing
/// checked. Read lines through ``lines(of:)`` instead.
package enum TextLines {
  /// The lines of `text`, without their line ends; an empty last line is kept, so a line's
  /// index plus one is its line number.
  package static func lines(of text: String) -> [Substring] {
    var lines: [Substring] = []
    let bytes = text.utf8
    var start = bytes.startIndex
    var index = start
    while index != bytes.endIndex {
      let byte = bytes[index]
      guard byte == 10 || byte == 13 else {
        index = bytes.index(after: index)
        continue
      }
      // A line end is always a character boundary (a grapheme never spans one).
      lines.append(text[start..<index])
      index = bytes.index(after: index)
      if byte == 13, index != bytes.endIndex, bytes[index] == 10 { index = bytes.index(after: index) }
      start = index
    }
    lines.append(text[start...])
    return lines
  }
}
