// A user's life written as a trace.
package import Dwell
internal import DwellTesting
internal import Foundation

/// Collects a user's life as trace events (for `--export-trace` and tests).
package struct TraceSink: LifeSink {
  package private(set) var events: [TraceEvent] = []
  package init() {}
  package mutating func event(_ kind: TraceEvent.Kind, at t: Int64) {
    events.append(TraceEvent(line: events.count + 1, t: MonotonicInstant(nanoseconds: t), kind: kind))
  }
  package mutating func endOfDay(_ day: Int, at t: Int64) {}
}
