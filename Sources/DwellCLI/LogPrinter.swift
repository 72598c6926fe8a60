// The sim's log printed line by line when its output is not a terminal.
internal import Dispatch
internal import Dwell
internal import DwellHarness
internal import Foundation

/// Writes the simulator's new log lines to standard output, unbuffered (a pipe reader sees
/// each at once), from the command loop and the watcher alike.
final class LogPrinter: @unchecked Sendable {
  // @unchecked: `seen` is touched only under `lock`.
  private let simulator: Simulator
  private let lock = NSLock()
  private var seen = 0

  init(_ simulator: Simulator) { self.simulator = simulator }

  func flush() {
    lock.withLock {
      let fresh = simulator.log(since: seen)
      seen = fresh.count
      if !fresh.lines.isEmpty { put(fresh.lines.joined(separator: "\n")) }
    }
  }

  func write(_ text: String) { lock.withLock { put(text) } }

  private func put(_ text: String) { Terminal.write(text + "\n") }
}
