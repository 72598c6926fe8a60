internal import Dwell
internal import Foundation

/// The simulator's log: the lines a command writes, then the lines of what it caused
/// (unlocks, awards, notifications, a script's output and errors), so the log always reads
/// as the command followed by its consequences.
extension Simulator {
  /// Logs a line of the command (or reload) running now. Every log line is shown with its
  /// control characters escaped: it may quote a command line, a screen name, a path or a
  /// pack's text, which must not clear the terminal or fake a line.
  func note(_ text: String, _ kind: LogLine.Kind) {
    let line = LogLine(time: timeStamp(), text: escapingControls(text), kind: kind)
    logLock.withLock { append(line) }
  }

  /// Logs a line of what the engine or the rules did: while a command runs it waits, with
  /// its own time stamp, until the command's own lines are written.
  func report(_ text: String, _ kind: LogLine.Kind) {
    let line = LogLine(time: timeStamp(), text: escapingControls(text), kind: kind)
    logLock.withLock {
      if caused != nil { caused?.append(line) } else { append(line) }
    }
  }

  /// Runs `body` (a command, a reload) and logs what it caused after the lines it wrote
  /// itself, even when it throws. Nested calls log their own consequences when they end.
  func logConsequences<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
    let outer = logLock.withLock { () -> [LogLine]? in
      defer { caused = [] }
      return caused
    }
    defer {
      logLock.withLock {
        let lines = caused ?? []
        caused = outer
        for line in lines { append(line) }
      }
    }
    return try body()
  }

  /// Appends under `logLock`, keeping the last 1,000 lines.
  private func append(_ line: LogLine) {
    logLines.append(line)
    if logLines.count > 1000 {
      dropped += logLines.count - 1000
      logLines.removeFirst(logLines.count - 1000)
    }
  }

  /// Notifications plugins posted in this world, "Title" or "Title: body".
  var notifications: [String] {
    get { logLock.withLock { posted } }
    set { logLock.withLock { posted = newValue } }
  }

  /// The log, oldest first (the last 1,000 lines).
  public var log: [LogLine] {
    get { logLock.withLock { logLines } }
    set {
      logLock.withLock {
        dropped += logLines.count
        logLines = newValue
      }
    }
  }

  /// Log lines added since `count` lines, for line mode.
  public func log(since count: Int) -> (lines: [String], count: Int) {
    logLock.withLock {
      let fresh = logLines.dropFirst(min(logLines.count, max(0, count - dropped)))
      return (fresh.map { "\($0.time)  \($0.text)" }, dropped + logLines.count)
    }
  }
}
