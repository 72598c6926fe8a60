internal import Foundation

/// Screen names from code nobody reviewed: trimmed, control characters removed, at most
/// 200 characters, never empty.
public enum ScreenName {
  /// The cleaned name.
  public static func clean(_ name: String) -> String {
    var result = String(name.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) })
      .trimmingCharacters(in: .whitespacesAndNewlines)
    if result.count > 200 { result = String(result.prefix(200)) }
    return result.isEmpty ? "Unnamed" : result
  }
}
