internal import Dispatch

/// A scheduled piece of work that can be cancelled.
package protocol ScheduledWork: Sendable {
  /// Cancels the work if it has not started yet.
  func cancel()
}
