// Screen groups: the one name a group of screens goes by wherever a condition takes a
// screen, its members, the name the engine measures it under, and its problems in words.

internal import Foundation

/// A group of screens (`screens = { "Breathe", "Meditate" }`): its time runs while any of
/// them is visible and accruing, counted once; its visits are theirs added up (see
/// <doc:Accounting>). A condition names it with one string, the members after a mark that
/// no recorded screen name holds (a control character: ``ScreenName`` removes those).
package enum ScreenGroup {
  /// U+001F INFORMATION SEPARATOR ONE: before and between the members' names.
  static let mark: Unicode.Scalar = "\u{1F}"

  /// The name that stands for the group of `screens`, in their order.
  package static func name(_ screens: [String]) -> String {
    String(Character(mark)) + screens.joined(separator: String(Character(mark)))
  }

  /// The members of a group's name, in order; `nil` for a screen's name.
  package static func members(_ name: String) -> [String]? {
    guard name.unicodeScalars.first == mark else { return nil }
    let rest = name.unicodeScalars.dropFirst()
    guard !rest.isEmpty else { return [] }
    return rest.split(separator: mark, omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
  }

  /// Whether `name` names a group.
  @inline(__always)
  package static func isGroup(_ name: String) -> Bool { name.unicodeScalars.first == mark }

  /// The name the engine measures a group under: its members cleaned as recorded names are,
  /// once each, sorted, so that listing them in another order names the same figures.
  static func measured(_ name: String) -> String? {
    guard let members = members(name) else { return nil }
    return Self.name(Set(members.map(ScreenName.clean)).sorted())
  }

  /// The group's name with its members cleaned as recorded names are, once each, in order.
  static func cleaned(_ name: String) -> String {
    guard let members = members(name) else { return ScreenName.clean(name) }
    var seen = Set<String>()
    return Self.name(members.map(ScreenName.clean).filter { seen.insert($0).inserted })
  }

  /// A screen's name as it is, a group's in words: "Breathe or Meditate", "A, B or C".
  package static func words(_ name: String) -> String {
    guard let members = members(name), let last = members.last else { return name }
    return members.count == 1 ? last : members.dropLast().joined(separator: ", ") + " or " + last
  }

  /// What is wrong with a group's name (no member, one, an empty or repeated one); `nil`
  /// for a screen's name or a good group.
  static func problem(_ name: String) -> String? {
    guard let members = members(name) else { return nil }
    let example = "as in screens = { \"Breathe\", \"Meditate\" }"
    if members.isEmpty { return "'screens' is empty; list two or more screens, \(example)" }
    if members.contains(where: { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) {
      return "'screens' holds an empty name; name each screen, \(example)"
    }
    if let odd = members.first(where: { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) {
      return "'screens' holds \"\(ScreenName.clean(odd))\" with a control character; "
        + "write the name as the app records it"
    }
    if members.count == 1 {
      return "'screens' lists one screen; write screen = \"\(members[0])\", or list two or more"
    }
    var seen = Set<String>()
    if let repeated = members.map(ScreenName.clean).first(where: { !seen.insert($0).inserted }) {
      return "'screens' lists \"\(repeated)\" twice; list each screen once"
    }
    return nil
  }
}

extension Condition {
  /// The one name of a group of screens, to give wherever a condition takes a screen's
  /// name: `.screenTime(Condition.group(["Breathe", "Meditate"]), .minutes(10))`. The
  /// group's time runs while any of them is visible, counted once (two of them visible at
  /// once count once, not twice); its visits are theirs added up. Two or more names, each
  /// once (``Tracker/Configuration/validate()`` says otherwise); the order does not change
  /// the figures.
  public static func group(_ screens: [String]) -> String { ScreenGroup.name(screens) }
}
