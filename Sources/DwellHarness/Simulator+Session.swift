internal import Dwell
internal import DwellLua
internal import DwellTesting
internal import Foundation

/// The session as a whole: `undo` and `reset` rebuild the world (engine, store, clock,
/// plugin state, points, log) by replaying the commands kept; `record` writes the trace.
extension Simulator {
  func undo(_ args: [String]) throws(CommandError) -> String {
    try noArguments(args, "undo")
    guard !history.isEmpty else { throw CommandError("nothing to undo") }
    let undone = history.removeLast()
    rebuild(history)
    note("Undid '\(undone)'", .info)
    return ""
  }

  func reset() -> String {
    rebuild([])
    note("Reset: a fresh store, fresh plugins, the clock back at the start", .info)
    return ""
  }

  /// Starts the world again from its first instant and replays `commands` in it. The rules
  /// in force are kept, in a fresh Lua state, so plugins start from nothing as on a first
  /// launch; the log becomes what those commands wrote.
  private func rebuild(_ commands: [String]) {
    engine?.abandon()
    engine = nil
    Store.removeFiles(at: storePath)
    clock = ManualClock()
    wall = ManualWallClock(clock: clock, wall: options.start, timeZone: options.timeZone)
    stack = []
    trace = []
    nextID = 0
    history = []
    try? use(source?.fresh())  // the same rules, which validated before
    log = []
    notifications = []
    logLock.withLock { announcements = [] }
    // The launch's consequences (an unlock at the first session) are logged at the launch,
    // before the replayed commands, not after the `undo` that asked for the rebuild.
    logConsequences {
      do throws(CommandError) {
        try start()
      } catch {
        note(error.message, .error)
      }
    }
    for command in commands { _ = try? run(command, recordHistory: true) }
  }

  func recordCommand(_ args: [String]) throws(CommandError) -> String {
    guard args.count == 1, let path = args.first else {
      throw CommandError("record takes a file: record session.jsonl")
    }
    // The file ends the way the process would if it quit now, so replaying it gives the
    // totals shown now.
    var events = trace
    if engine != nil {
      var closing: [TraceEvent.Kind] = appState == .active ? [.inactive] : []
      if appState != .background { closing.append(.background) }
      closing.append(.terminate)
      for kind in closing { events.append(TraceEvent(line: events.count + 1, t: clock.now(), kind: kind)) }
    }
    let text = events.map(\.jsonLine).joined(separator: "\n") + "\n"
    do {
      try Output.write(
        text, to: path,
        sparing: Output.storeFiles(options.storePath) + Output.packFiles(options.rulesPath) + options.inputs)
    } catch {
      throw CommandError(error.description)
    }
    note("Recorded \(events.count) events to \(path); replay it with: \(replayCommand(path))", .info)
    return ""
  }

  /// The `dwell replay` command that gives the figures shown now: the same rules and timeouts.
  func replayCommand(_ path: String) -> String {
    var words = ["dwell", "replay", path]
    if let rules = options.rulesPath { words += ["--rules", rules] }
    if let idle = options.configuration.idleTimeout { words += ["--idle-timeout", Self.seconds(idle)] }
    if options.configuration.sessionTimeout != Engine.Configuration().sessionTimeout {
      words += ["--session-timeout", Self.seconds(options.configuration.sessionTimeout)]
    }
    return words.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
  }

  private static func seconds(_ duration: Duration) -> String {
    let value = duration.seconds
    return value == value.rounded() ? "\(Int(value))" : "\(value)"
  }
}
