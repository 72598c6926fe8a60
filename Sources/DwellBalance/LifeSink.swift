// Where a simulated user's life goes: an engine, or a trace.
package import Dwell
internal import DwellTesting
internal import Foundation

/// Receives a user's life as it is generated: lifecycle events in time order, and the end
/// of each day. Nothing is kept: a sink that needs the trace writes it out.
package protocol LifeSink {
  /// An event at `t` nanoseconds after the install day's midnight (UTC).
  mutating func event(_ kind: TraceEvent.Kind, at t: Int64)
  /// Day `day` (0 = the install day) is over; `t` is its end, or later if a session ran past midnight.
  mutating func endOfDay(_ day: Int, at t: Int64)
}
