import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Output that cannot be written (a full disk, a pipe nobody reads) makes a command fail
/// with the reason, for the files it writes and for the standard output alike; it used to
/// report success.
@Suite struct OutputFailureTests {
  /// A device every write to fails with "No space left on device": /dev/full, or one made
  /// with mknod where /dev/full is missing (a container); nil when neither is possible.
  static let fullDevice: String? = {
    var info = stat()
    if stat("/dev/full", &info) == 0, info.st_mode & S_IFMT == S_IFCHR { return "/dev/full" }
    #if os(Linux)
      // Linux's full device is 1:7, encoded by makedev (which Swift does not import). One
      // path, made once and reused, so runs leave no litter.
      let path = FileManager.default.temporaryDirectory.path + "/dwell-tests-full-device"
      guard mknod(path, S_IFCHR | 0o666, (1 << 8) | 7) == 0 || errno == EEXIST else { return nil }
      let fd = open(path, O_WRONLY)
      defer { if fd >= 0 { close(fd) } }
      return fd >= 0 && write(fd, "x", 1) < 0 && errno == ENOSPC ? path : nil
    #else
      return nil
    #endif
  }()

  /// A store with a few days of the demo, and a sim script.
  static func fixture(_ directory: TemporaryStore) throws -> (store: String, script: String) {
    let out = directory.directory + "/demo"
    #expect(try CommandLineTests.dwell(["demo", "--out", out, "--days", "3"]).status == 0)
    let script = try CommandLineTests.write(
      "open Lessons\nwait 2m\nrecord \(fullDevice ?? "-")\n", to: directory, name: "session.sim")
    return (out + "/demo.sqlite", script)
  }

  /// Runs dwell with its standard output on a pipe whose reading end is closed, SIGPIPE
  /// ignored (as a shell pipeline into a program that has quit): every write fails, EPIPE.
  static func dwellIntoAClosedPipe(_ arguments: [String]) throws -> Subprocess.Result {
    let script = """
      trap '' PIPE
      d=$(mktemp -d) && mkfifo "$d/f" || exit 99
      exec 3<>"$d/f" 4>"$d/f" 3<&-
      rm -r "$d"
      exec "$0" "$@" >&4 4>&-
      """
    return try Subprocess.run("/bin/sh", ["-c", script, CommandLineTests.binary.path] + arguments)
  }

  static let pack = BalanceTests.path("rules/learning")

  @Test(.enabled(if: fullDevice != nil, "needs a device that is always full: /dev/full, or mknod (root)"))
  func aFileThatCannotBeWrittenIsAnError() throws {
    let directory = TemporaryStore()
    let (store, script) = try Self.fixture(directory)
    let full = try #require(Self.fullDevice)
    let balance = ["balance", Self.pack, "--users", "2", "--days", "2"]
    let commands: [[String]] = [
      ["report", store, "--html", full],
      ["export", store, "--format", "csv", "--out", full],
      ["export", store, "--format", "json", "--out", full],
      balance + ["--html", full],
      balance + ["--export-trace", "0:" + full],
      ["demo", "--days", "2", "--html", full],
      ["test", Self.pack, "--junit", full],
      ["sim", "--rules", Self.pack, "--script", script],
    ]
    for command in commands {
      let run = try CommandLineTests.dwell(command)
      let said = "dwell \(command.joined(separator: " ")): \(run.status) \(run.stderr)"
      #expect(run.status != 0, "\(said)")
      #expect(run.stderr.contains("cannot write \(full): No space left on device"), "\(said)")
    }
  }

  @Test func aStandardOutputThatCannotBeWrittenIsAnError() throws {
    let directory = TemporaryStore()
    let (store, _) = try Self.fixture(directory)
    let sim = try CommandLineTests.write("open Lessons\nwait 2m\nstatus\n", to: directory, name: "status.sim")
    let balance = ["balance", Self.pack, "--users", "2", "--days", "2"]
    let commands: [[String]] = [
      ["report", store], ["report", store, "--json"], ["export", store, "--format", "csv"], ["check", store],
      balance, balance + ["--json"], balance + ["--csv"], ["rules", "check", Self.pack], ["test", Self.pack],
      ["sim", "--rules", Self.pack, "--script", sim], ["--help"],
    ]
    for command in commands {
      let run = try Self.dwellIntoAClosedPipe(command)
      let said = "dwell \(command.joined(separator: " ")): \(run.status) \(run.stderr)"
      #expect(!run.timedOut, "\(said)")
      #expect(run.status == 1, "\(said)")
      #expect(run.stderr.contains("dwell: cannot write the standard output: Broken pipe"), "\(said)")
    }
  }
}
