import Dwell
import DwellHarness
import Foundation
import Testing

/// `dwell sim` as a process: scripts and pipes (line numbers, exit codes, reading as lines
/// arrive, --watch) and the live view in a real terminal (tmux on a private server).
@Suite struct SimTerminalTests {
  static let tmuxPath = "/usr/bin/tmux"
  static let rule = #"unlock "bonus" { title = "Bonus", when = { screen = "Lessons", seconds = minutes(30) } }"#

  /// Runs a shell command line (for pipes that wait between lines).
  static func shell(_ script: String, timeout: Duration = .seconds(60)) throws -> Subprocess.Result {
    let result = try Subprocess.run("/bin/sh", ["-c", script], timeout: timeout)
    #expect(!result.timedOut, "sh -c \(script) did not finish")
    return result
  }

  static var dwell: String { CommandLineTests.binary.path }
  static let fixed = "--start '2026-05-04 09:00' --tz Europe/Berlin"

  @Test(arguments: [
    ("open Lessons\nwait 5m\nfrobnicate\nstatus\n", "s.txt:3: unknown command 'frobnicate'; type 'help' for the list"),
    (
      "# a comment\nopen Lessons\n\nwait -5m\n",
      "s.txt:4: a duration cannot be negative ('-5m'); to move the wall clock back, use 'clock -5m'"
    ),
    ("tab Home\nskip three days\n", "s.txt:2: skip takes a number of days: skip 3 days"),
  ])
  func aScriptThatFailsNamesItsLineAndExitsOne(script: String, message: String) throws {
    let dir = TemporaryStore()
    let path = try CommandLineTests.write(script, to: dir, name: "s.txt")
    let run = try CommandLineTests.dwell(["sim", "--script", path])
    #expect(run.status == 1)
    #expect(run.stderr == "dwell: \(path.replacingOccurrences(of: "s.txt", with: ""))\(message)\n")
    #expect(!run.stdout.contains("> status"))  // the run stopped at the failing line
  }

  @Test(arguments: [["sim", "--help"], ["test", "--help"], ["--help"]])
  func helpFitsEightyColumns(arguments: [String]) throws {
    let run = try CommandLineTests.dwell(arguments)
    #expect(run.status == 0)
    for line in run.stdout.split(separator: "\n") { #expect(TerminalText.width(String(line)) <= 80, "\(line)") }
  }

  /// The first command writes a file; the pipe sends the second only once that file
  /// exists. Read to the end before running, the sim would never see "open Seen".
  @Test func aPipeDrivesTheSimLive() throws {
    let dir = TemporaryStore()
    let marker = dir.directory + "/t.jsonl"
    let run = try Self.shell(
      """
      { echo "record \(marker)"; i=0; while [ ! -f \(marker) ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; \
      if [ -f \(marker) ]; then echo "open Seen"; else echo "open NotSeen"; fi; echo status; } \
      | TMPDIR=\(dir.directory) \(Self.dwell) sim \(Self.fixed)
      """)
    #expect(run.status == 0)
    #expect(run.stdout.contains("Opened Seen"))
    // Every exit removes the temporary store, its WAL, shared memory and journals.
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.directory).filter { $0.hasPrefix("dwell-sim-") }
    #expect(left.isEmpty)
  }

  /// With --watch a saved edit (the same length) reloads while the script waits on its
  /// input: the reload is logged before the next command arrives.
  @Test func watchReloadsWhileAScriptRuns() throws {
    let dir = TemporaryStore()
    let rules = try CommandLineTests.write(Self.rule, to: dir, name: "r.lua")
    let edited = Self.rule.replacingOccurrences(of: "minutes(30)", with: "minutes(15)")
    let run = try Self.shell(
      """
      { echo "open Lessons"; echo "wait 20m"; sleep 1; printf '%s' '\(edited)' > \(rules); sleep 2; echo "status"; } \
      | \(Self.dwell) sim --watch --rules \(rules) \(Self.fixed)
      """)
    #expect(run.status == 0)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    let reloaded = try #require(lines.firstIndex { $0.contains("Rules reloaded: 1 rule") })
    let status = try #require(lines.firstIndex { $0 == "> status" })
    #expect(reloaded < status)
    #expect(run.stdout.contains("09:20:00  ★ Unlocked bonus \"Bonus\""))
  }

  // MARK: In a terminal

  final class Tmux {
    let server = "dwell-test-\(UUID().uuidString.prefix(8))"

    @discardableResult
    func callAsFunction(_ args: [String]) throws -> String {
      // Only capture-pane's output is read: new-session starts the server, a daemon.
      let result = try Subprocess.run(
        SimTerminalTests.tmuxPath, ["-L", server] + args, capture: args.first == "capture-pane",
        timeout: .seconds(20))
      #expect(!result.timedOut, "tmux \(args.first ?? "") did not finish")
      return result.stdout
    }

    /// The screen with wrapped lines joined, so a line wider than the pane shows as one.
    func screen(waitingFor text: String) throws -> String {
      var last = ""
      for _ in 0..<TestEnvironment.patientPolls() {
        last = try self(["capture-pane", "-p", "-J", "-t", "sim"])
        if last.contains(text) { return last }
        Thread.sleep(forTimeInterval: 0.05)
      }
      return last
    }

    deinit { _ = try? self(["kill-server"]) }
  }

  /// The live view never passes the pane's width (nothing wraps) and never scrolls (the
  /// header stays on the first row), at 60x20, 80x24 and 120x40, redrawn on each resize.
  @Test(
    .enabled(
      if: TestEnvironment.hasTmux, "tmux runs the sim in a real pty; CI installs it"))
  func theLiveViewFitsEverySizeAndRedrawsOnResize() throws {
    let dir = TemporaryStore()
    let rules = try CommandLineTests.write(
      (1...15).map {
        #"unlock "a-rule-with-a-long-name-\#($0)" { when = { screen = "瞑想の時間", seconds = \#($0 * 60) } }"#
      }
      .joined(separator: "\n"), to: dir, name: "r.lua")
    let tmux = Tmux()
    try tmux([
      "new-session", "-d", "-s", "sim", "-x", "80", "-y", "24",
      "TMPDIR=\(dir.directory) \(Self.dwell) sim --rules \(rules) \(Self.fixed)",
    ])
    #expect(try tmux.screen(waitingFor: "Dwell sim").contains("09:00:00"))
    try tmux(["send-keys", "-t", "sim", "open 深い呼吸と静かな朝の瞑想セッションと長い名前", "Enter"])
    try tmux(["send-keys", "-t", "sim", "open 瞑想の時間", "Enter"])
    try tmux(["send-keys", "-t", "sim", "wait 3m", "Enter"])
    _ = try tmux.screen(waitingFor: "Waiting until")
    try "unlock \"x\" {".write(toFile: rules, atomically: true, encoding: .utf8)  // an error to show
    _ = try tmux.screen(waitingFor: "Rules not reloaded")
    for (width, height) in [(60, 20), (120, 40), (80, 24), (60, 20)] {
      try tmux(["resize-window", "-t", "sim", "-x", "\(width)", "-y", "\(height)"])
      // No command is typed: the resize alone redraws, with as many dividers as fit.
      var shown = ""
      for _ in 0..<TestEnvironment.patientPolls() {
        shown = try tmux(["capture-pane", "-p", "-J", "-t", "sim"])
        let rows = shown.split(separator: "\n", omittingEmptySubsequences: false)
        if rows.contains(where: { $0.hasPrefix("── Rules ") && TerminalText.width(String($0)) == width }) { break }
        Thread.sleep(forTimeInterval: 0.05)
      }
      let rows = shown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      #expect(rows.first?.hasPrefix("Dwell sim") == true, "\(width)x\(height): the view scrolled:\n\(shown)")
      #expect(rows.contains { $0.hasPrefix("── Rules ") && TerminalText.width($0) == width }, "not redrawn at \(width)")
      for row in rows { #expect(TerminalText.width(row) <= width, "\(width)x\(height): \(row)") }
      #expect(rows.contains { $0.contains("r.lua:1:") })
    }
    // Ctrl-C clears the line being typed and the session goes on.
    try tmux(["send-keys", "-t", "sim", "open Never"])
    try tmux(["send-keys", "-t", "sim", "C-c"])
    #expect(try tmux.screen(waitingFor: "Line cleared").contains("Line cleared"))
    try tmux(["send-keys", "-t", "sim", "touch", "Enter"])
    let after = try tmux.screen(waitingFor: "Touched")
    #expect(after.contains("Touched"))
    #expect(!after.contains("Opened Never"))
    // 'exit' leaves and removes the temporary store with its WAL, shm and journals.
    try tmux(["send-keys", "-t", "sim", "exit", "Enter"])
    var left: [String] = ["?"]
    for _ in 0..<TestEnvironment.patientPolls() where !left.isEmpty {
      Thread.sleep(forTimeInterval: 0.05)
      left = try FileManager.default.contentsOfDirectory(atPath: dir.directory).filter { $0.hasPrefix("dwell-sim-") }
    }
    #expect(left.isEmpty)
  }

  /// Closing the terminal (SIGHUP) also removes the temporary store.
  @Test(
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: tmuxPath), "tmux runs the sim in a real pty; CI installs it"))
  func closingTheTerminalRemovesTheStore() throws {
    let dir = TemporaryStore()
    let tmux = Tmux()
    try tmux([
      "new-session", "-d", "-s", "sim", "-x", "80", "-y", "24",
      "TMPDIR=\(dir.directory) \(Self.dwell) sim \(Self.fixed)",
    ])
    try tmux(["send-keys", "-t", "sim", "open Lessons", "Enter"])
    #expect(try tmux.screen(waitingFor: "Opened Lessons").contains("Opened Lessons"))
    func left() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: dir.directory).filter { $0.hasPrefix("dwell-sim-") }
    }
    #expect(try !left().isEmpty)
    try tmux(["kill-session", "-t", "sim"])
    var remaining = try left()
    for _ in 0..<TestEnvironment.patientPolls() where !remaining.isEmpty {
      Thread.sleep(forTimeInterval: 0.05)
      remaining = try left()
    }
    #expect(remaining.isEmpty)
  }

  /// In a real terminal (#26): the log after `undo` reads in the order things happened (the
  /// launch's unlock first, 'Undid' last), and a long line (the `record` hint's command, a
  /// disabled check's error) wraps to the pane's width instead of ending in "…".
  @Test(.enabled(if: TestEnvironment.hasTmux, "tmux runs the sim in a real pty; CI installs it"))
  func undoKeepsTheLogInOrderAndLongLinesWrap() throws {
    let dir = TemporaryStore()
    let rules = try CommandLineTests.write(
      #"unlock "first" { when = { sessions = 1 } }"# + "\n"
        + #"unlock "typo" { check = function(u) return u.nothing.here > 1 end }"#, to: dir, name: "typo-unlock.lua")
    let tmux = Tmux()
    try tmux([
      "new-session", "-d", "-s", "sim", "-x", "60", "-y", "30",
      "TMPDIR=\(dir.directory) \(Self.dwell) sim --rules \(rules) \(Self.fixed)",
    ])
    _ = try tmux.screen(waitingFor: "Dwell sim")
    for command in ["open Home", "wait 1m", "undo"] { try tmux(["send-keys", "-t", "sim", command, "Enter"]) }
    let undone = try tmux.screen(waitingFor: "Undid")
    let rows = undone.split(separator: "\n").map(String.init)
    let unlock = rows.firstIndex { $0.contains("Unlocked first") }
    let opened = rows.firstIndex { $0.contains("Opened Home") }
    let undid = rows.firstIndex { $0.contains("Undid 'wait 1m'") }
    #expect(unlock != nil && opened != nil && undid != nil, "\(undone)")
    if let unlock, let opened, let undid { #expect(unlock < opened && opened < undid, "\(undone)") }
    let session = dir.directory + "/a-folder-with-a-long-name-for-the-recording/session.jsonl"
    try FileManager.default.createDirectory(
      atPath: (session as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try tmux(["send-keys", "-t", "sim", "record \(session)", "Enter"])
    let shown = try tmux.screen(waitingFor: "Recorded")
    for row in shown.split(separator: "\n") { #expect(TerminalText.width(String(row)) <= 60, "\(row)") }
    #expect(!shown.contains("…"), "\(shown)")
    let joined = shown.filter { !$0.isWhitespace }
    #expect(joined.contains("dwellreplay\(session)--rules\(rules)"), "\(shown)")
    #expect(joined.contains("typo-unlock.lua:2:attempttoindexanilvalue"), "\(shown)")
    try tmux(["send-keys", "-t", "sim", "exit", "Enter"])
  }
}
