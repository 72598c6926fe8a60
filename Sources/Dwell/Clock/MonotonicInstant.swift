// An instant of the monotonic clock, the only clock durations are measured on.

/// A point on a monotonic timeline, in nanoseconds since an arbitrary origin (usually boot).
///
/// Monotonic instants only measure durations. They mean nothing across reboots, so every
/// instant that is persisted is paired with the boot session (`MonotonicClock.bootSession`) it came from.
public struct MonotonicInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
  /// Nanoseconds since the clock's origin.
  public var nanoseconds: Int64

  /// Creates an instant from nanoseconds since the clock's origin.
  public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

  /// Creates an instant from seconds since the clock's origin, rounded to the nanosecond.
  package init(seconds: Double) { self.nanoseconds = Int64((seconds * 1e9).rounded()) }

  /// Seconds since the clock's origin.
  package var seconds: Double { Double(nanoseconds) / 1e9 }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

  /// The instant `duration` later.
  package static func + (lhs: Self, rhs: Duration) -> Self {
    Self(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
  }

  /// The duration from `rhs` to `lhs`.
  package static func - (lhs: Self, rhs: Self) -> Duration {
    .nanoseconds(lhs.nanoseconds &- rhs.nanoseconds)
  }

  public var description: String { "\(seconds)s" }
}
