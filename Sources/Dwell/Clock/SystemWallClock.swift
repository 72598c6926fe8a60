// The device's wall clock and time zone.
package import Foundation

/// The device's wall clock and current time zone.
package struct SystemWallClock: WallClock {
  /// Creates the system wall clock.
  package init() {}
  package func now() -> WallInstant { WallInstant(Date()) }
  package var timeZone: TimeZone { TimeZone.current }
}
