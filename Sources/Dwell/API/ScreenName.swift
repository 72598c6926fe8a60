internal import Foundation

/// Screen names from code nobody reviewed: trimmed, control characters (Unicode category
/// Cc: tabs, newlines, NUL) removed, at most 200 characters, never empty. Format
/// characters stay: the zero-width joiners of emoji sequences ("👩‍👩‍👧‍👦") and of Persian
/// and Indic names are part of the name. Queries and rules clean names the same way, so a
/// name means the same screen wherever the app's code writes it.
public enum ScreenName {
  /// The cleaned name.
  public static func clean(_ name: String) -> String {
    var result = String(
      String.UnicodeScalarView(name.unicodeScalars.filter { $0.properties.generalCategory != .control })
    )
    .trimmingCharacters(in: .whitespacesAndNewlines)
    if result.count > 200 { result = String(result.prefix(200)) }
    return result.isEmpty ? "Unnamed" : result
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
