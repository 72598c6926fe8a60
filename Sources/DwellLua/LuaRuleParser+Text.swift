// Titles and descriptions of rules: shown in logs and terminals, so plain, one line, bounded.

internal import Dwell

extension LuaRuleParser {
  /// Why a title or description cannot be shown: control characters (a newline, ESC...)
  /// would fake lines or move the cursor where it is shown, and it has a length limit.
  static func badText(_ text: String?, _ key: String) -> Failure? {
    guard let text else { return nil }
    if let odd = text.unicodeScalars.first(where: isControl) {
      let shown = "U+" + String(odd.value, radix: 16, uppercase: true)
      return Failure("its \(key) contains a control character (\(shown)); write it on one line of plain text (sandbox)")
    }
    guard text.count <= textLength else {
      return Failure("its \(key) is longer than \(textLength) characters (\(text.count)) (sandbox)")
    }
    return nil
  }

  /// Characters a title or description may have.
  static let textLength = 500
}
