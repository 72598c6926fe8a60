public import Dwell
public import Foundation

/// A tracker on a manual clock, for testing an app's own unlock logic in milliseconds.
///
/// The simulated app starts launched and active; screens are opened, used and closed;
/// time jumps by hand.
///
/// ```swift
/// let sim = TrackerSimulation(configuration: myConfiguration)
/// for _ in 0..<4 {
///   sim.use("Lessons", for: .minutes(12))
///   sim.nextDay()
/// }
/// #expect(sim.tracker.isUnlocked("four-day-streak"))
/// ```
public final class TrackerSimulation: Sendable {
  /// The manual monotonic clock (advance it to move time).
  public let clock: ManualClock
  /// The wall clock, in the simulation's time zone.
  public let wallClock: ManualWallClock
  /// The tracker under test.
  public let tracker: Tracker

  /// Creates a simulation starting at `start` (default 2026-03-02 09:00 UTC, a Monday).
  /// The store is in memory unless the configuration names a file.
  public init(
    configuration: Tracker.Configuration = Tracker.Configuration(),
    start: WallInstant = WallInstant(nanosecondsSince1970: 1_772_442_000_000_000_000),
    timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current
  ) {
    var configuration = configuration
    if configuration.storeLocation == .applicationSupport { configuration.storeLocation = .inMemory }
    clock = ManualClock()
    wallClock = ManualWallClock(clock: clock, wall: start, timeZone: timeZone)
    tracker = Tracker(configuration: configuration, clock: clock, wallClock: wallClock, scheduler: clock)
    tracker.record(.active)
  }

  /// Moves time forward (timers fire at their exact instants on the way).
  public func wait(_ duration: Duration) { clock.advance(by: duration) }

  /// Shows `screen`, waits `duration`, hides it.
  public func use(_ screen: String, for duration: Duration) {
    let id = open(screen)
    wait(duration)
    close(id)
  }

  /// Shows a screen; returns its identity for ``close(_:)``.
  @discardableResult
  public func open(_ screen: String) -> ScreenInstance {
    let id = ScreenInstance(UUID().uuidString)
    tracker.screenAppeared(screen, id: id)
    return id
  }

  /// Hides a screen.
  public func close(_ id: ScreenInstance) { tracker.screenDisappeared(id: id) }

  /// The app goes to the background, time passes to `hour`:00 the next local day, and the
  /// app comes back active.
  public func nextDay(at hour: Int = 9) {
    tracker.record(.inactive)
    tracker.record(.background)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = wallClock.timeZone
    let now = wallClock.now().date
    let start = calendar.startOfDay(for: now)
    let next = calendar.date(byAdding: .day, value: 1, to: start).flatMap {
      calendar.date(bySettingHour: max(0, min(23, hour)), minute: 0, second: 0, of: $0)
    }
    let seconds = (next ?? now.addingTimeInterval(86_400)).timeIntervalSince(now)
    wait(.milliseconds(Int64((seconds * 1000).rounded())))
    tracker.record(.foreground)
    tracker.record(.active)
  }
}
