// How the engine schedules its timed work (checkpoints, wake-ups): injected, so tests run it on a manual clock.
internal import Dispatch

/// Runs the engine's background work: timers at monotonic instants, and work to do soon.
///
/// The engine never starts threads or tasks itself; it asks its scheduler. Production code
/// uses ``DispatchScheduler`` (one serial queue); tests use `DwellTesting.ManualClock`,
/// which runs timers synchronously, at their exact instants, when the test advances time.
package protocol EngineScheduler: Sendable {
  /// Runs `work` at `deadline` on the scheduler's serial context.
  func schedule(at deadline: MonotonicInstant, _ work: @escaping @Sendable () -> Void)
    -> any ScheduledWork
  /// Runs `work` soon, in order with other work, on the scheduler's serial context.
  func perform(_ work: @escaping @Sendable () -> Void)
  /// Whether ``perform(_:)`` runs work immediately on the calling thread. A synchronous
  /// scheduler lets the engine process every event as it is recorded (tests, replay).
  var isSynchronous: Bool { get }
  /// While the scheduler runs timers on its way to an instant it already knows (a manual
  /// clock jumping forward), that instant; `nil` for real time. Nothing is recorded before
  /// the horizon, so the engine makes one periodic checkpoint in the last interval before
  /// it instead of one every interval: a replay of ten idle-free days costs the same as a
  /// replay of ten minutes, and a crash at the horizon still loses less than one interval.
  var horizon: MonotonicInstant? { get }
  /// Runs `work` on the scheduler's serial context and returns when it is done; runs it
  /// at once when called from that context. `record(.background)` waits this way for the
  /// journal write, so nothing is lost if the app is suspended right after.
  func performAndWait(_ work: () -> Void)
}

extension EngineScheduler {
  /// Real time has no horizon.
  package var horizon: MonotonicInstant? { nil }

  /// Runs `work` on the calling thread (a synchronous scheduler's context is the caller's).
  package func performAndWait(_ work: () -> Void) { work() }
}
