// Applies lifecycle trace events, one at a time, to real engines on a real store: the one
// place that knows what `launch`, `crash`, `terminate` and `clock` do to a process.
package import Dwell

/// Drives engines through a trace on a manual clock, an event at a time.
///
/// Each `launch` creates an ``Engine`` on the store; `terminate` ends it cleanly; `crash`
/// abandons it with whatever was not committed, so the next `launch` goes through the real
/// recovery path. ``Replayer`` runs a whole trace with it; a caller that must look at the
/// engine between events (the fuzzer's invariants) steps it itself.
package final class TraceDriver {
  /// The clock the engines run on; timers fire at their exact instants as it advances.
  package let clock = ManualClock()
  /// The engine of the process running now; `nil` before the first launch and after a
  /// crash or terminate.
  package private(set) var engine: Engine?
  private var wallClock: ManualWallClock?
  private let storePath: String
  private let configuration: Engine.Configuration

  /// Creates a driver whose engines share the store at `storePath`.
  package init(storePath: String, configuration: Engine.Configuration) {
    self.storePath = storePath
    self.configuration = configuration
  }

  /// Advances the clock to the event's instant and applies the event.
  ///
  /// - Throws: ``StoreError`` or ``RuleError`` when an engine cannot start.
  package func apply(_ event: TraceEvent) throws {
    clock.advance(to: event.t)
    switch event.kind {
    case .launch(let wall, let zone):
      if let wallClock {
        if let wall { wallClock.set(wall) }
        if let zone { wallClock.set(timeZone: zone) }
      } else if let wall, let zone {
        wallClock = ManualWallClock(clock: clock, wall: wall, timeZone: zone)
      }
      guard let wallClock else { return }
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
  }
}
