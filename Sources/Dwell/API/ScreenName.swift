internal import Foundation

/// Screen names from code nobody reviewed: trimmed, control characters (Unicode category
/// Cc: tabs, newlines, NUL) removed, at most 200 characters, never empty. Format
/// characters stay: the zero-width joiners of emoji sequences ("👩‍👩‍👧‍👦") and of Persian
/// and Indic names are part of the name. Queries and rules clean names the same way, so a
/// name means the same screen wherever the app's code writes it.
public enum ScreenName {
  /// The cleaned name.
  public static func clean(_ name: String) -> String {
    // Most names are clean already: every query cleans its name, so answer those without
    // building a new string (the rest below costs microseconds).
    if isClean(name) { return name }
    var result = String(String.UnicodeScalarView(name.unicodeScalars.filter { !isControl($0) }))
      .trimmingCharacters(in: .whitespacesAndNewlines)
    if result.count > 200 { result = String(result.prefix(200)) }
    return result.isEmpty ? "Unnamed" : result
  }

  /// Whether `clean(name)` is `name`: not empty, at most 200 UTF-8 bytes (so at most 200
  /// characters), no control character, no white space or newline at either end.
  private static func isClean(_ name: String) -> Bool {
    let scalars = name.unicodeScalars
    guard let first = scalars.first, let last = scalars.last, name.utf8.count <= 200,
      !isTrimmed(first), !isTrimmed(last)
    else { return false }
    return !scalars.contains(where: isControl)
  }

  /// Category Cc: U+0000-U+001F and U+007F-U+009F, and nothing else in any Unicode version.
  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  /// Whether `trimmingCharacters(in: .whitespacesAndNewlines)` removes `scalar` (the set
  /// itself beyond ASCII: platforms differ, U+200B is in it on Linux).
  private static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x80
      ? scalar == " " || (0x09...0x0D).contains(scalar.value) : CharacterSet.whitespacesAndNewlines.contains(scalar)
  }
}

extension Rule {
  /// The rule with its screen names cleaned as recorded names are (``ScreenName/clean(_:)``).
  var withCleanNames: Rule {
    var rule = self
    rule.condition = condition.withCleanNames
    return rule
  }
}

extension Condition {
  /// The condition with every screen name cleaned as recorded names are.
  var withCleanNames: Condition {
    switch self {
    case .screenTime(let name, let duration): return .screenTime(ScreenName.clean(name), duration)
    case .visits(let name, let count): return .visits(ScreenName.clean(name), count)
    case .activeDays(let count, let minimum, let screen):
      return .activeDays(count, minimumPerDay: minimum, screen: screen.map(ScreenName.clean))
    case .streak(let count, let minimum, let screen):
      return .streak(count, minimumPerDay: minimum, screen: screen.map(ScreenName.clean))
    case .all(let parts): return .all(parts.map(\.withCleanNames))
    case .any(let parts): return .any(parts.map(\.withCleanNames))
    case .appTime, .sessions, .check: return self
    }
  }
}
