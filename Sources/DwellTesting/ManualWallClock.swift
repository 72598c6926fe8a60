public import Dwell
public import Foundation

/// A wall clock that follows a ``ManualClock``: wall(t) = W + (t − tW) for the latest
/// (tW, W) set, exactly as the accounting contract (the Accounting article) defines it. The time zone is set by hand.
public final class ManualWallClock: WallClock {
  private struct Anchor {
    var mono: Int64
    var wall: WallInstant
    var zone: TimeZone
  }
  private let clock: ManualClock
  private let anchor: Locked<Anchor>

  /// Creates a wall clock reading `wall` now, in `timeZone`.
  public init(
    clock: ManualClock, wall: WallInstant = WallInstant(nanosecondsSince1970: 1_767_225_600_000_000_000),
    timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current
  ) {
    self.clock = clock
    anchor = Locked(Anchor(mono: clock.now().nanoseconds, wall: wall, zone: timeZone))
  }

  public func now() -> WallInstant {
    let mono = clock.now().nanoseconds
    return anchor.withLock {
      WallInstant(nanosecondsSince1970: $0.wall.nanosecondsSince1970 + (mono - $0.mono))
    }
  }

  public var timeZone: TimeZone { anchor.withLock { $0.zone } }

  /// Sets the wall clock to `wall` at the current manual instant (the user changed the date).
  public func set(_ wall: WallInstant) {
    let mono = clock.now().nanoseconds
    anchor.withLock {
      $0.mono = mono
      $0.wall = wall
    }
  }

  /// Sets the time zone in force.
  public func set(timeZone: TimeZone) { anchor.withLock { $0.zone = timeZone } }
}
