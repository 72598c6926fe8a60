import Dwell
import DwellHarness
import DwellTesting
import Foundation
import Testing

@Suite struct HarnessTests {
  static let start = parseWall("2026-05-04T07:00:00Z")  // 09:00 in Berlin
  static let berlin = TimeZone(identifier: "Europe/Berlin")!

  func makeRules(_ text: String) throws -> (TemporaryStore, String) {
    let dir = TemporaryStore()
    let path = dir.directory + "/pack.lua"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return (dir, path)
  }

  func logText(_ sim: Simulator) -> String { sim.log(since: 0).lines.joined(separator: "\n") }

  @Test func theDesignersLoop() throws {
    let (dir, path) = try makeRules(
      #"unlock "bonus" { title = "Bonus level", when = { screen = "Lessons", seconds = minutes(30) } }"#)
    let sim = try Simulator(options: .init(rulesPath: dir.directory, start: Self.start, timeZone: Self.berlin))
    sim.execute("open Lessons")
    sim.execute("wait 20m")
    #expect(!logText(sim).contains("Unlocked bonus"))
    sim.execute("wait 10m")
    #expect(logText(sim).contains("09:30:00  ★ Unlocked bonus \"Bonus level\""))

    // Edit the threshold of a second rule: re-evaluated at the next command.
    try #"""
    unlock "bonus" { title = "Bonus level", when = { screen = "Lessons", seconds = minutes(30) } }
    unlock "quick" { when = { screen = "Lessons", seconds = minutes(5) } }
    """#.write(toFile: path, atomically: true, encoding: .utf8)
    sim.execute("touch")
    #expect(logText(sim).contains("Rules reloaded: 2 rules"))
    #expect(sim.execute("rules").contains("✓ quick"))

    // A syntax error: reported, the old rules keep running.
    try "unlock \"bonus\" {".write(toFile: path, atomically: true, encoding: .utf8)
    sim.execute("touch")
    #expect(logText(sim).contains("Rules not reloaded, the previous ones keep running: pack.lua:1:"))
    #expect(sim.execute("rules").contains("quick"))
  }

  @Test func screensFollowNavigationSheetsAndTabs() throws {
    let sim = try Simulator(options: .init(start: Self.start, timeZone: Self.berlin))
    for command in [
      "tab Home", "wait 10s", "open Lessons", "wait 20s", "sheet Paywall", "wait 5s", "dismiss",
      "back", "wait 1m", "tab Profile", "wait 3s",
    ] {
      sim.execute(command)
    }
    let status = sim.execute("status")
    #expect(status.contains("Screens: Profile"))
    let recorded = TemporaryStore()
    let tracePath = recorded.directory + "/session.jsonl"
    sim.execute("record \(tracePath)")
    let report = try replay(
      try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n").map(String.init))
    #expect(seconds(report.screens["Home"]!.time) == 70)
    #expect(report.screens["Home"]!.visits == 2)
    #expect(seconds(report.screens["Lessons"]!.time) == 25)
    #expect(seconds(report.screens["Paywall"]!.time) == 5)
    #expect(seconds(report.screens["Profile"]!.time) == 3)
    #expect(seconds(report.app.time) == 98)
  }

  @Test func aRecordedSessionReplaysToTheSameTotals() throws {
    let sim = try Simulator(options: .init(start: Self.start, timeZone: Self.berlin))
    for command in [
      "open Lessons", "wait 10m", "background", "wait 2h", "foreground", "wait 5m", "crash", "wait 1m",
      "launch", "active", "open Quiz", "wait 90s", "clock -3d", "wait 1m", "tz Asia/Tokyo", "next day 08:00",
      "open Lessons", "wait 7m", "skip 2 days", "open Home", "wait 1m", "quit",
    ] {
      sim.execute(command)
    }
    #expect(!logText(sim).contains("not running"))
    let dir = TemporaryStore()
    let path = dir.directory + "/t.jsonl"
    sim.execute("record \(path)")
    let replayed = try replay(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init))
    let status = sim.execute("status")
    #expect(status.contains("all time \(SimDurationText.words(replayed.app.time))"))
    #expect(replayed.sessions >= 3)
  }

  @Test func undoRebuildsWithoutTheLastCommand() throws {
    let sim = try Simulator(options: .init(start: Self.start, timeZone: Self.berlin))
    sim.execute("open Lessons")
    sim.execute("wait 10m")
    sim.execute("wait 1h")
    sim.execute("undo")
    #expect(sim.execute("status").contains("all time 10m 00s"))
    sim.execute("reset")
    #expect(sim.execute("status").contains("all time 0s"))
  }

  @Test func mistakesAreExplainedNotFatal() throws {
    let sim = try Simulator(options: .init(start: Self.start, timeZone: Self.berlin))
    for command in [
      "frobnicate", "wait forever", "open", "back", "tz Mars/Base", "skip -1 days", "wait until 25:00", "launch",
    ] {
      sim.execute(command)
    }
    let log = logText(sim)
    #expect(log.contains("unknown command 'frobnicate'"))
    #expect(log.contains("'forever' is not a duration"))
    #expect(log.contains("no screen to close"))
    #expect(log.contains("the app is already running"))
    #expect(log.contains("a time of day is HH:MM"))
  }

  @Test func theViewFitsATerminal() throws {
    let (dir, _) = try makeRules(
      (1...40).map { #"unlock "rule-\#($0)" { when = { screen = "S", seconds = \#($0 * 60) } }"# }.joined(
        separator: "\n"))
    let sim = try Simulator(options: .init(rulesPath: dir.directory, start: Self.start, timeZone: Self.berlin))
    for i in 0..<30 { sim.execute("open Screen-with-a-rather-long-name-\(i)") }
    let view = sim.render(width: 80, height: 24, color: false)
    let lines = view.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count <= 24)
    #expect(lines.allSatisfy { TerminalText.width(String($0)) <= 80 })
    #expect(view.contains("more (type 'rules')"))
    let wide = sim.render(width: 160, height: 60, color: true)
    #expect(wide.contains("\u{1B}["))
  }

  @Test func scriptModeOfTheBinary() throws {
    let dir = TemporaryStore()
    let script = try CommandLineTests.write("open Lessons\nwait 30m\nstatus\n", to: dir, name: "s.txt")
    let rules = try CommandLineTests.write(
      #"unlock "bonus" { when = { screen = "Lessons", seconds = minutes(30) } }"#, to: dir, name: "r.lua")
    let run = try CommandLineTests.dwell([
      "sim", "--rules", rules, "--script", script, "--start", "2026-05-04 09:00", "--tz", "Europe/Berlin",
    ])
    #expect(run.status == 0)
    #expect(run.stdout.contains("> wait 30m"))
    #expect(run.stdout.contains("09:30:00  ★ Unlocked bonus"))
    #expect(!run.stdout.contains("\u{1B}["))  // no colour when not a terminal
  }

  @Test(.enabled(if: TestEnvironment.hasTmux, "tmux runs the harness in a real terminal; CI installs it"))
  func theInteractiveHarnessInATerminal() throws {
    let dir = TemporaryStore()
    let rules = try CommandLineTests.write(
      #"unlock "bonus" { title = "Bonus", when = { screen = "Lessons", seconds = minutes(30) } }"#, to: dir,
      name: "r.lua")
    // A tmux server of its own (-L), so the test neither needs nor disturbs the user's.
    let server = "dwell-test-\(UUID().uuidString.prefix(8))"
    func tmux(_ args: [String]) throws -> String {
      // Only capture-pane's output is read: new-session starts the server, a daemon.
      let result = try Subprocess.run(
        "/usr/bin/tmux", ["-L", server] + args, capture: args.first == "capture-pane", timeout: .seconds(20))
      #expect(!result.timedOut, "tmux \(args.first ?? "") did not finish")
      return result.stdout
    }
    let command = "\(CommandLineTests.binary.path) sim --rules \(rules) --start '2026-05-04 09:00' --tz Europe/Berlin"
    _ = try tmux(["new-session", "-d", "-s", "sim", "-x", "80", "-y", "24", command])
    defer { _ = try? tmux(["kill-server"]) }
    func screen(waitingFor text: String) throws -> String {
      var last = ""
      for _ in 0..<TestEnvironment.patientPolls() {
        last = try tmux(["capture-pane", "-p", "-t", "sim"])
        if last.contains(text) { return last }
        Thread.sleep(forTimeInterval: 0.05)
      }
      return last
    }
    #expect(try screen(waitingFor: "Dwell sim").contains("2026-05-04 Mon 09:00:00"))
    _ = try tmux(["send-keys", "-t", "sim", "open Lessons", "Enter"])
    _ = try tmux(["send-keys", "-t", "sim", "wait 30m", "Enter"])
    let shown = try screen(waitingFor: "Unlocked bonus")
    #expect(shown.contains("✓ bonus"))
    #expect(shown.contains("09:30:00"))
    // Edit the rules in "another terminal": the view updates on its own.
    try
      #"unlock "bonus" { title = "Bonus", when = { screen = "Lessons", seconds = minutes(30) } } unlock "later" { when = { appSeconds = hours(2) } }"#
      .write(toFile: rules, atomically: true, encoding: .utf8)
    let reloaded = try screen(waitingFor: "Rules reloaded")
    #expect(reloaded.contains("later"))
    #expect(reloaded.split(separator: "\n").allSatisfy { $0.count <= 80 })
  }
}

/// The harness's duration words, for comparing with its status line.
enum SimDurationText {
  static func words(_ duration: Duration) -> String {
    let total = Int(duration.seconds.rounded(.down))
    func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    if total < 60 { return "\(total)s" }
    if total < 3600 { return "\(total / 60)m \(pad(total % 60))s" }
    return "\(total / 3600)h \(pad(total / 60 % 60))m"
  }
}
