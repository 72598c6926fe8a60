import Foundation

/// What the machine running the tests offers beyond the Swift toolchain, for the tests
/// that need more: each is `.enabled(if:)` one of these, with the reason. CI sets
/// `DWELL_CI=1` and installs what these need; there they are never skipped, so a missing
/// tool fails the test instead of passing it silently.
enum TestEnvironment {
  /// Running in CI (`.ci/run`).
  static let isCI = ProcessInfo.processInfo.environment["DWELL_CI"] == "1"

  static let tmuxPath = "/usr/bin/tmux"

  /// tmux, to drive the sim's live view in a real terminal (`apt-get install tmux`).
  static var hasTmux: Bool { isCI || FileManager.default.isExecutableFile(atPath: tmuxPath) }

  /// python3 with the `duckdb` package, to load exports in a real analytics engine
  /// (`pip install duckdb`).
  static var hasDuckDB: Bool { isCI || pythonHasDuckDB }
  private static let pythonHasDuckDB: Bool =
    (try? Subprocess.run("/usr/bin/env", ["python3", "-c", "import duckdb"], timeout: .seconds(60)))?.status == 0

  /// `swiftc`, to compile the README's snippets (part of every Swift toolchain).
  static var swiftc: String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
    return path.split(separator: ":").map { $0 + "/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}
