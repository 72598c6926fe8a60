internal import Dwell
package import Foundation

/// Time zones by the names designers type (`--tz`, `tz`, `@tz`): an IANA identifier, or a
/// message naming the identifier meant (`Berlin` is `Europe/Berlin`); and a zone's name as
/// shown (`UTC`, which Foundation on Linux calls "GMT").
package enum TimeZoneName {
  /// The zone `name` identifies.
  ///
  /// - Throws: a message that says what to write: the known identifier a city, a
  ///   differently cased or misspelt identifier stands for, or two examples.
  package static func zone(_ name: String) throws(Simulator.CommandError) -> TimeZone {
    if let zone = TimeZone(identifier: name), !name.isEmpty { return zone }
    if let meant = suggestion(for: name) { throw .init("'\(name)' is not a time zone; write \(meant)") }
    throw .init("'\(name)' is not a time zone; write an IANA time zone, such as Europe/Berlin or Asia/Tokyo")
  }

  /// The known identifier `name` most likely means: the one it matches but for case
  /// (`europe/berlin`), whose city it is (`Berlin`, `new york`, `Sao_Paulo`), or whose
  /// city or identifier it nearly spells; `nil` when none.
  static func suggestion(for name: String) -> String? {
    let typed = name.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "_")
    guard !typed.isEmpty, typed.utf8.count <= 64 else { return nil }
    let known = TimeZone.knownTimeZoneIdentifiers + ["UTC", "GMT"]
    if let same = known.first(where: { $0.lowercased() == typed.lowercased() }) { return same }
    var cities: [String: String] = [:]
    for identifier in known.sorted() where identifier.contains("/") {
      let city = identifier.split(separator: "/").last.map(String.init) ?? identifier
      // The first region in sorted order wins a city named twice (a rare alias).
      if cities[city.lowercased()] == nil { cities[city.lowercased()] = identifier }
    }
    let city = typed.split(separator: "/").last.map { String($0).lowercased() } ?? typed.lowercased()
    if let identifier = cities[city] { return identifier }
    if let near = Spelling.closest(to: city, in: cities.keys) { return cities[near] }
    return Spelling.closest(to: typed, in: known)
  }

  /// How `zone` is named on screen: its identifier, with `UTC` for the zone Foundation on
  /// Linux names "GMT" when asked for "UTC".
  package static func display(_ zone: TimeZone) -> String {
    zone.identifier == "GMT" ? "UTC" : zone.identifier
  }
}
