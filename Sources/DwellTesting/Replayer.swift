package import Dwell
internal import Foundation

/// Feeds a lifecycle trace to real engines on a real store, driven by a manual clock.
///
/// Each `launch` creates an ``Engine`` on the store; `terminate` ends it cleanly; `crash`
/// abandons it with whatever was not committed, so the next `launch` goes through the
/// real recovery path. Timers (checkpoints, unlock instants) fire at their exact instants.
///
/// ```swift
/// let events = try TraceParser.parse(text)
/// let report = try Replayer(storePath: path, configuration: config).run(events)
/// ```
package struct Replayer {
  /// The store file the engines share.
  package var storePath: String
  /// The engines' configuration.
  package var configuration: Engine.Configuration

  /// Creates a replayer.
  package init(storePath: String, configuration: Engine.Configuration = Engine.Configuration()) {
    self.storePath = storePath
    self.configuration = configuration
  }

  /// Replays `events` and returns the report at the end of the trace: the live report if
  /// the process is still running, otherwise what the store holds.
  ///
  /// - Parameter progress: called with the number of events done, every 1,000 events.
  /// - Throws: ``StoreError`` or ``RuleError`` from the engine.
  package func run(_ events: [TraceEvent], progress: ((Int) -> Void)? = nil) throws -> UsageReport {
    let clock = ManualClock()
    var wallClock: ManualWallClock?
    var engine: Engine?
    for (index, event) in events.enumerated() {
      clock.advance(to: event.t)
      switch event.kind {
      case .launch(let wall, let zone):
        if let wallClock {
          if let wall { wallClock.set(wall) }
          if let zone { wallClock.set(timeZone: zone) }
        } else if let wall, let zone {
          wallClock = ManualWallClock(clock: clock, wall: wall, timeZone: zone)
        }
        guard let wallClock else { continue }
        engine = try Engine(
          store: Store(path: storePath), configuration: configuration, clock: clock,
          wallClock: wallClock, scheduler: clock)
      case .crash:
        engine?.abandon()
        engine = nil
      case .terminate:
        engine?.terminate()
        engine = nil
      case .clock(let wall, let zone):
        if let wall { wallClock?.set(wall) }
        if let zone { wallClock?.set(timeZone: zone) }
        if let lifecycle = event.lifecycleEvent { engine?.record(lifecycle) }
      default:
        if let lifecycle = event.lifecycleEvent { engine?.record(lifecycle) }
      }
      if let progress, index % 1000 == 999 { progress(index + 1) }
    }
    if let engine { return engine.report() }
    return try UsageReport(store: Store(path: storePath))
  }
}
