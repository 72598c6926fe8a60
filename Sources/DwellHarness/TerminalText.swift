/// Text as a terminal shows it: display width (colour codes take none, CJK and emoji take
/// two columns), and fitting or wrapping lines to a width without splitting a code.
package enum TerminalText {
  /// Columns `text` takes on a terminal.
  ///
  /// ```swift
  /// TerminalText.width("\u{1B}[1mDwell\u{1B}[0m")  // 5
  /// TerminalText.width("瞑想")  // 4
  /// ```
  package static func width(_ text: String) -> Int {
    var total = 0
    var escape = EscapeState.none
    for character in text {
      if escape.consume(character) { continue }
      total += Self.width(of: character)
    }
    return total
  }

  /// `text` cut to at most `width` columns, ending in "…" when cut; colour codes are kept
  /// and closed.
  package static func fit(_ text: String, _ width: Int) -> String {
    guard self.width(text) > width else { return text }
    var result = ""
    var used = 0
    var escape = EscapeState.none
    var sawCode = false
    for character in text {
      if escape.consume(character) {
        result.append(character)
        sawCode = true
        continue
      }
      let w = Self.width(of: character)
      if used + w > width - 1 { break }
      result.append(character)
      used += w
    }
    return result + "…" + (sawCode ? "\u{1B}[0m" : "")
  }

  /// `text` (no colour codes) broken into lines of at most `width` columns, at spaces
  /// where it can; continuation lines start with `indent` spaces.
  package static func wrap(_ text: String, _ width: Int, indent: Int = 2) -> [String] {
    // A line's own indentation is kept, and continuation lines go further in.
    let lead = text.prefix { $0 == " " }
    guard lead.isEmpty || lead.count >= width else {
      return wrap(String(text.dropFirst(lead.count)), width - lead.count, indent: indent).map { lead + $0 }
    }
    var lines: [String] = []
    var line = ""
    var used = 0
    // Room on the line being filled: continuation lines lose the indent.
    var room: Int { width - (lines.isEmpty ? 0 : indent) }
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      let w = self.width(String(word))
      if used > 0, used + 1 + w > room {
        lines.append(line)
        line = ""
        used = 0
      }
      if used > 0 {
        line += " "
        used += 1
      }
      // A word longer than a line is cut into pieces.
      var rest = Substring(word)
      while used + self.width(String(rest)) > room, used < room {
        var piece = ""
        var pieceWidth = 0
        while let next = rest.first, used + pieceWidth + Self.width(of: next) <= room {
          piece.append(next)
          pieceWidth += Self.width(of: next)
          rest = rest.dropFirst()
        }
        guard !piece.isEmpty else { break }
        lines.append(line + piece)
        line = ""
        used = 0
      }
      line += rest
      used += self.width(String(rest))
    }
    lines.append(line)
    return lines.enumerated().map { $0.offset == 0 ? $0.element : String(repeating: " ", count: indent) + $0.element }
  }

  /// Columns of one character: 0 for controls and joiners, 2 for wide East Asian
  /// characters and emoji, 1 otherwise.
  static func width(of character: Character) -> Int {
    guard let first = character.unicodeScalars.first else { return 0 }
    if first.value < 0x20 || (0x7F..<0xA0).contains(first.value) { return 0 }
    if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    return character.unicodeScalars.contains { isWide($0.value) } ? 2 : 1
  }

  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
    0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
    0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
    0x26F2...0x26F5, 0x26FA...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728, 0x274C...0x274C,
    0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797, 0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C,
    0x2B50...0x2B50, 0x2B55...0x2B55, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
    0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
    0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E,
    0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB,
    0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x3FFFD,
  ]

  private static func isWide(_ value: UInt32) -> Bool {
    wideRanges.contains { $0.contains(value) }
  }

  /// Skips ANSI escape sequences (ESC [ ... final byte).
  private enum EscapeState {
    case none, escape, csi

    /// Whether `character` belongs to an escape sequence (and so takes no columns).
    mutating func consume(_ character: Character) -> Bool {
      switch self {
      case .none:
        guard character == "\u{1B}" else { return false }
        self = .escape
      case .escape:
        self = character == "[" ? .csi : .none
      case .csi:
        if let value = character.asciiValue, (0x40...0x7E).contains(value) { self = .none }
      }
      return true
    }
  }
}
