// A wall-clock instant, used only to name days.
public import Foundation

/// A wall-clock instant: nanoseconds since 1970-01-01T00:00:00Z.
///
/// Dwell uses wall time only to name days. It is never subtracted to measure a duration.
public struct WallInstant: Comparable, Hashable, Sendable {
  /// Nanoseconds since the Unix epoch.
  public var nanosecondsSince1970: Int64

  /// Creates an instant from nanoseconds since the Unix epoch.
  public init(nanosecondsSince1970: Int64) { self.nanosecondsSince1970 = nanosecondsSince1970 }

  /// Creates an instant from a `Date`, rounded to the microsecond.
  public init(_ date: Date) {
    // A clock set centuries off (or a NaN) is clamped to what Int64 nanoseconds hold.
    let micros = (date.timeIntervalSince1970 * 1e6).rounded()
    let limit = 9.2e15  // below Int64.max / 1000
    let clamped = micros.isNaN ? 0 : min(max(micros, -limit), limit)
    self.nanosecondsSince1970 = Int64(clamped) * 1000
  }

  /// The instant as a `Date`.
  public var date: Date { Date(timeIntervalSince1970: Double(nanosecondsSince1970) / 1e9) }

  /// Milliseconds since the Unix epoch, rounded down.
  package var millisecondsSince1970: Int64 {
    nanosecondsSince1970 >= 0
      ? nanosecondsSince1970 / 1_000_000 : (nanosecondsSince1970 - 999_999) / 1_000_000
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    lhs.nanosecondsSince1970 < rhs.nanosecondsSince1970
  }
}
