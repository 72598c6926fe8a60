/// The source of durations: a clock that never goes backwards and ignores wall-clock changes.
///
/// Dwell measures every duration with a monotonic clock, so a user who changes the date
/// neither gains nor loses time. ``SystemMonotonicClock`` is the production clock;
/// `DwellTesting.ManualClock` drives time by hand in tests.
package protocol MonotonicClock: Sendable {
  /// The current instant. Called on the hot path: it must be cheap and lock-free.
  func now() -> MonotonicInstant
  /// Identifies the clock's origin (the boot). Two instants are comparable only when
  /// they were read in the same boot session.
  var bootSession: String { get }
}

extension Duration {
  /// The whole duration in nanoseconds, saturating at the bounds of `Int64`.
  var nanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    return product &+ attoseconds / 1_000_000_000
  }

  /// The duration in seconds as a floating-point number.
  public var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

extension Duration {
  /// `n` minutes: `.minutes(30)`. Past the range of a `Duration`'s whole seconds
  /// (`Int64`, about 292 billion years), the end of the range: `.minutes(.max)` is
  /// `.seconds(Int64.max)`, never a trap.
  public static func minutes(_ n: Int) -> Duration { .seconds(clampedSeconds(n, times: 60)) }
  /// `n` minutes, fractional: `.minutes(1.5)`, to the millisecond. NaN is `.zero`; beyond
  /// the range of `Int64` milliseconds (about 292 million years), including the infinities,
  /// the end of the range, never a trap.
  package static func minutes(_ n: Double) -> Duration {
    let milliseconds = (n * 60_000).rounded()
    if milliseconds.isNaN { return .zero }
    // 2^63 is the first Double past Int64.max.
    if milliseconds >= 0x1p63 { return .milliseconds(Int64.max) }
    if milliseconds < -0x1p63 { return .milliseconds(Int64.min) }
    return .milliseconds(Int64(milliseconds))
  }
  /// `n` hours: `.hours(2)`. Clamped like ``minutes(_:)-(Int)``: never a trap.
  public static func hours(_ n: Int) -> Duration { .seconds(clampedSeconds(n, times: 3600)) }
  /// `n` days of 24 hours: `.days(1)`. Clamped like ``minutes(_:)-(Int)``: never a trap.
  public static func days(_ n: Int) -> Duration { .seconds(clampedSeconds(n, times: 86_400)) }

  /// `n * unit` seconds, saturating at the bounds of `Int64`.
  private static func clampedSeconds(_ n: Int, times unit: Int64) -> Int64 {
    let (product, overflow) = Int64(n).multipliedReportingOverflow(by: unit)
    return overflow ? (n < 0 ? .min : .max) : product
  }
}
