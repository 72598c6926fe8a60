// The engine options that `dwell sim`, `replay` and `balance` share: declared once (name,
// placeholder, help) and applied once to the engine's configuration.
internal import Dwell

extension Command.Option {
  /// `--idle-timeout S` and `--session-timeout S`.
  static let timeouts: [Command.Option] = [
    .seconds(
      "idle-timeout", "Stop counting S seconds after the last touch", default: Engine.Configuration().idleTimeout),
    .seconds("session-timeout", "Gap that starts a new session", default: Engine.Configuration().sessionTimeout),
  ]
}

extension Arguments {
  /// Sets the timeouts given with ``Command/Option/timeouts``; the others keep their values.
  func applyTimeouts(to configuration: inout Engine.Configuration) throws(UsageError) {
    configuration.idleTimeout = try seconds("idle-timeout")
    if let timeout = try seconds("session-timeout") { configuration.sessionTimeout = timeout }
  }
}
