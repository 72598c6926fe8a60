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

  /// How many polls, `interval` seconds apart, a test makes while it waits for another
  /// process (the sim in tmux, a file it removes) to show what the test expects: 30 s worth,
  /// times `slowdown`. Only a failure waits that long, so the bound is generous: on a loaded
  /// machine a sim that shows its view in 2 s alone took over 5 s (a landing at load 7).
  static func patientPolls(every interval: Double = 0.05) -> Int { Int(30 / interval) * Int(slowdown) }

  /// How many times a bound on time a test checks is stretched: 10 when the tests run under
  /// ThreadSanitizer or AddressSanitizer (found by their runtimes' entry points), which
  /// slow every instrumented line by about that much; otherwise 1.
  static let slowdown: Int64 = {
    #if canImport(Darwin)
      let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
      let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    let runtimes: [String] = ["__tsan_init", "__asan_init"]
    return runtimes.contains { dlsym(everywhere, $0) != nil } ? 10 : 1
  }()

  /// The processor time the calling thread has used: what its work cost, however busy the
  /// machine is with other work (a wall clock counts the waits for a core too).
  static func threadTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
  }

  /// A small tmpfs can be mounted, to fill a real disk under a store: root on Linux, in a
  /// container allowed to mount. Probed, not assumed from `DWELL_CI`: CI runs as root,
  /// but its full-disk soak step treats mounting as optional too (DISK_SOAK_OPTIONAL).
  static let canMountTmpfs: Bool = {
    #if os(Linux)
      guard getuid() == 0, let mount = try? TmpfsMount(size: 64 * 1024) else { return false }
      mount.unmount()
      return true
    #else
      return false
    #endif
  }()

  /// `swiftc`, to compile the README's snippets (part of every Swift toolchain).
  static var swiftc: String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
    return path.split(separator: ":").map { $0 + "/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}
