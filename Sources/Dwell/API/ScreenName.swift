internal import Foundation

/// Screen names from code nobody reviewed: trimmed, control characters (Unicode category
/// Cc: tabs, newlines, NUL) removed, at most 200 characters, never empty. Format
/// characters stay: the zero-width joiners of emoji sequences ("👩‍👩‍👧‍👦") and of Persian
/// and Indic names are part of the name. Queries and rules clean names the same way, so a
/// name means the same screen wherever the app's code writes it.
package enum ScreenName {
  /// The cleaned name.
  package static func clean(_ name: String) -> String {
    // Most names are clean already: every query cleans its name, so answer those without
    // building a new string (the rest below costs microseconds).
    if isClean(name) { return name }
    var result = String(String.UnicodeScalarView(name.unicodeScalars.filter { !isControl($0) }))
      .trimmingCharacters(in: .whitespacesAndNewlines)
    if result.count > 200 { result = String(result.prefix(200)) }
    return result.isEmpty ? "Unnamed" : result
  }

  /// Whether `clean(name)` is `name`: not empty, at most 200 UTF-8 bytes (so at most 200
  /// characters), no control character, no white space or newline at either end. Every
  /// screen appearance asks (the hot path), so the bytes answer when both ends are ASCII.
  @inline(__always)
  static func isClean(_ name: String) -> Bool {
    if let verdict = name.utf8.withContiguousStorageIfAvailable(isClean(utf8:)), let verdict { return verdict }
    return isCleanScalars(name)
  }

  /// ``isClean(_:)`` from the UTF-8 bytes: `nil` when an end is not ASCII (which white space
  /// beyond ASCII is trimmed is `CharacterSet`'s to say). Swift strings are valid UTF-8, so
  /// the controls beyond ASCII (U+0080-U+009F) are exactly the byte pairs C2 80 to C2 9F.
  private static func isClean(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
    guard let first = bytes.first, let last = bytes.last, bytes.count <= 200 else { return false }
    guard first < 0x80, last < 0x80 else { return nil }
    // A space at either end is trimmed; tabs and newlines are controls, refused below.
    if first == 0x20 || last == 0x20 { return false }
    if let ascii = asciiControls(in: bytes) { return !ascii }
    // Beyond ASCII somewhere inside: byte by byte.
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte < 0x20 || byte == 0x7F { return false }
      // C2 is a lead byte: the next byte is its continuation (the string is valid UTF-8).
      if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] < 0xA0 { return false }
      index += 1
    }
    return true
  }

  /// Whether `bytes` hold an ASCII control (below 0x20, or 0x7F); `nil` when a byte is
  /// beyond ASCII. Names of 8 bytes or more go 8 bytes at a time: for a byte b below 0x80,
  /// v = (b + 1) & 0x7F is below 0x21 exactly when b is a control, and (v | 0x80) - 0x21
  /// clears its top bit exactly then; neither step carries into the next byte.
  private static func asciiControls(in bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
    guard bytes.count >= 8 else {
      guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
      return bytes.contains { $0 < 0x20 || $0 == 0x7F }
    }
    let high: UInt64 = 0x8080_8080_8080_8080
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    var beyond: UInt64 = 0
    var found: UInt64 = 0
    forEachWord(bytes) { word in
      beyond |= word
      let v = ((word & low) &+ 0x0101_0101_0101_0101) & low
      found |= ~((v | high) &- 0x2121_2121_2121_2121)
    }
    guard beyond & high == 0 else { return nil }
    return found & high != 0
  }

  /// Calls `body` with each 8 bytes of `bytes` (at least 8), the last 8 overlapping.
  @inline(__always)
  private static func forEachWord(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UInt64) -> Void) {
    let raw = UnsafeRawBufferPointer(bytes)
    var offset = 0
    while offset + 8 <= raw.count {
      body(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset += 8
    }
    if offset < raw.count { body(raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self)) }
  }

  /// ``isClean(_:)`` scalar by scalar, for names whose ends are not ASCII.
  private static func isCleanScalars(_ name: String) -> Bool {
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
  /// The condition with every screen name cleaned as recorded names are (a group's, each member).
  var withCleanNames: Condition {
    switch self {
    case .screenTime(let name, let duration): return .screenTime(ScreenGroup.cleaned(name), duration)
    case .visits(let name, let count): return .visits(ScreenGroup.cleaned(name), count)
    case .activeDays(let count, let minimum, let screen):
      return .activeDays(count, minimumPerDay: minimum, screen: screen.map(ScreenGroup.cleaned))
    case .streak(let count, let minimum, let screen):
      return .streak(count, minimumPerDay: minimum, screen: screen.map(ScreenGroup.cleaned))
    case .all(let parts): return .all(parts.map(\.withCleanNames))
    case .any(let parts): return .any(parts.map(\.withCleanNames))
    case .within(let period, let part): return .within(period, part.withCleanNames)
    case .appTime, .sessions, .check, .actions, .actionDays, .actionStreak, .unlocked, .points, .level: return self
    }
  }
}
