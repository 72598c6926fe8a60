package import Foundation

/// The source of wall-clock time and of the time zone in force; both only name days.
package protocol WallClock: Sendable {
  /// The current wall-clock instant.
  func now() -> WallInstant
  /// The time zone now in force.
  var timeZone: TimeZone { get }
}
