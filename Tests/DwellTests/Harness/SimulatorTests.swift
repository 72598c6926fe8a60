import Dwell
import DwellHarness
import DwellLua
import DwellTesting
import Foundation
import Testing

/// The simulator as a designer uses it, in process: each test is a point of issue #14 that
/// failed before its fix.
@Suite struct SimulatorTests {
  static let start = parseWall("2026-05-04T07:00:00Z")  // 09:00 in Berlin
  static let berlin = TimeZone(identifier: "Europe/Berlin")!

  static func pack(_ text: String) throws -> TemporaryStore {
    let dir = TemporaryStore()
    try text.write(toFile: dir.directory + "/pack.lua", atomically: true, encoding: .utf8)
    return dir
  }

  static func sim(_ dir: TemporaryStore? = nil, idle: Duration? = nil) throws -> Simulator {
    var options = Simulator.Options(rulesPath: dir?.directory, start: start, timeZone: berlin)
    options.configuration.idleTimeout = idle
    return try Simulator(options: options)
  }

  static func text(_ sim: Simulator) -> String { sim.log.map(\.text).joined(separator: "\n") }

  static let earlySessions = """
    unlock "early-bird" { check = function(u) return false end }
    local p = plugin "three-sessions"
    p.on("session_start", function(u)
      p.state.count = (p.state.count or 0) + 1
      if p.state.count == 3 then
        p.award(5, "three early sessions")
        p.unlock("early-bird")
      end
    end)
    """

  /// `undo` and `reset` rebuild plugin state too: the plugin counts only the sessions of
  /// the world shown, and the recorded trace replays to the same unlocks and points.
  @Test func undoAndResetRollBackPluginState() throws {
    let dir = try Self.pack(Self.earlySessions)
    let sim = try Self.sim(dir)
    for command in ["bg", "wait 31m", "fg", "undo", "undo", "undo", "bg", "wait 31m", "fg"] {
      try sim.perform(command)
    }
    #expect(sim.execute("status").contains("2 sessions"))
    #expect(!Self.text(sim).contains("three early sessions"))
    try sim.perform("reset")
    for command in ["bg", "wait 31m", "fg"] { try sim.perform(command) }
    #expect(!Self.text(sim).contains("three early sessions"))
    for command in ["bg", "wait 31m", "fg"] { try sim.perform(command) }
    #expect(Self.text(sim).contains("★ +5 points from three-sessions: three early sessions"))
    #expect(Self.text(sim).contains("★ Unlocked early-bird"))

    let out = TemporaryStore()
    try sim.perform("record \(out.directory)/t.jsonl")
    let configuration = RuleSet(pack: try RuleSource.load(dir.directory).pack).configuration(base: .init())
    let replayed = try Replayer(storePath: out.path, configuration: configuration).run(
      TraceParser.parse(String(contentsOfFile: out.directory + "/t.jsonl", encoding: .utf8)))
    #expect(Set(replayed.unlocks.keys) == ["early-bird"])
    #expect(replayed.points == 5)
    #expect(sim.execute("status").contains("Points 5"))
  }

  @Test func aBrokenPackAtStartSaysWhereAndHow() throws {
    let dir = try Self.pack("unlock \"a\" { wen = { sessions = 1 } }")
    #expect {
      try Self.sim(dir)
    } throws: { error in
      "\(error)"
        == "the rules do not load: \(dir.directory)/pack.lua:1: rule 'a': unknown key 'wen' (did you mean 'when'?); "
        + "unlock takes check, description, every, from, summary, title, to, when"
    }
  }

  @Test(arguments: [
    ("frobnicate", "unknown command 'frobnicate'; type 'help' for the list"),
    ("opne Lessons", "unknown command 'opne'; did you mean 'open'? type 'help' for the list"),
    ("wait -5m", "a duration cannot be negative ('-5m'); to move the wall clock back, use 'clock -5m'"),
    ("wait 100000h", "'100000h' is 4166 days; one wait is at most 3650 days (10 years)"),
    ("wait forever", "'forever' is not a duration: 90s, 10m, 1h30m, 1.5h, 2d, 1w, 10 minutes, or a number of seconds"),
    (
      "wait 3 fortnights",
      "'3 fortnights' is not a duration: 'fortnights' is not a unit; 90s, 10m, 1h30m, 1.5h, 2d, 1w, 10 minutes, or a number of seconds"
    ),
    ("tz Berlin", "'Berlin' is not a time zone; write Europe/Berlin"),
    ("tz new york", "'new york' is not a time zone; write America/New_York"),
    ("tz europe/paris", "'europe/paris' is not a time zone; write Europe/Paris"),
    ("clock set 9999-12-31 23:59", "clock set takes a date from 1970-01-01 to 2200-12-31, not 9999-12-31"),
    ("clock set 0001-01-01", "clock set takes a date from 1970-01-01 to 2200-12-31, not 0001-01-01"),
    ("skip 5000 days", "skip takes at most 3650 days (10 years), not 5000"),
    ("touch twice", "touch takes no arguments, not 'twice'"),
    ("open \"Sleep Well", "a quote is not closed: open \"Sleep Well"),
  ])
  func mistakesAndLimitsAreSaidNotWrapped(command: String, message: String) throws {
    let sim = try Self.sim()
    let before = sim.execute("status")
    #expect {
      try sim.perform(command)
    } throws: { error in
      (error as? Simulator.CommandError)?.message == message
    }
    #expect(sim.execute("status") == before)
  }

  @Test func longWaitsStopAtTheLastDayInsteadOfWrapping() throws {
    let sim = try Self.sim()
    var refused = false
    for _ in 0..<30 where !refused {
      do { try sim.perform("wait 3650d") } catch { refused = error.message.contains("past 2200-12-31") }
    }
    #expect(refused)
    let year = Int(sim.execute("status").split(separator: " ")[3].prefix(4)) ?? 0
    #expect((2190...2200).contains(year))
  }

  @Test func quotedNamesLaunchHintAndLocalTimes() throws {
    let dir = try Self.pack(#"unlock "bonus" { when = { screen = "Sleep Well", seconds = minutes(30) } }"#)
    let sim = try Self.sim(dir)
    try sim.perform(#"open "Sleep Well""#)
    try sim.perform("wait 30m")
    #expect(sim.execute("status").contains("Screens: Sleep Well "))
    #expect(Self.text(sim).contains("★ Unlocked bonus"))
    // 09:30 in Berlin is 07:30 UTC: explain speaks the simulation's local time.
    let explained = sim.execute("explain bonus")
    #expect(explained.contains("Unlocked at 2026-05-04 Mon 09:30:00 Europe/Berlin"))
    try sim.perform("quit")
    try sim.perform("launch")
    #expect(Self.text(sim).contains("App launched, inactive: type 'active' (or 'fg') to use it"))
  }

  /// The record hint names the rules and timeouts, and following it gives the figures shown.
  @Test func theRecordHintReplaysToTheSameFigures() throws {
    let dir = try Self.pack(#"unlock "a" { when = { appSeconds = 60 } }"#)
    let sim = try Self.sim(dir, idle: .seconds(90))
    for command in ["open Lessons", "wait 330s"] { try sim.perform(command) }
    #expect(sim.execute("status").contains("all time 1m 30s"))
    let out = TemporaryStore()
    try sim.perform("record \(out.directory)/t.jsonl")
    let hint = try #require(Self.text(sim).components(separatedBy: "replay it with: ").last)
    #expect(hint == "dwell replay \(out.directory)/t.jsonl --rules \(dir.directory) --idle-timeout 90")
    let words = hint.split(separator: " ").dropFirst().map(String.init)
    let run = try CommandLineTests.dwell(words + ["--json"])
    let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    #expect((json?["app"] as? [String: Any])?["seconds"] as? Double == 90)
  }

  /// Every command's own line comes first in the log, then what it caused: unlocks,
  /// awards, notifications and script errors, whichever command caused them.
  @Test func theLogSaysTheCommandThenWhatItCaused() throws {
    let dir = try Self.pack(
      """
      unlock "opened" { when = { screen = "Lessons", visits = 1 } }
      unlock "second-session" { when = { sessions = 2 } }
      unlock "half-hour" { when = { appSeconds = minutes(30) } }
      local p = plugin "watch"
      p.on("screen_enter", function(u, name) if name == "Quiz" then p.notify("Quiz opened") end end)
      p.on("pause", function(u) p.award(1, "paused") end)
      local f = plugin "faulty"
      f.on("screen_leave", function(u, name) if name == "Quiz" then error("no leaving") end end)
      """)
    let sim = try Self.sim(dir)
    let steps: [(command: String, own: String, caused: String)] = [
      ("open Lessons", "Opened Lessons", "★ Unlocked opened"),
      ("tab Quiz", "Switched to the Quiz tab", "✉ Quiz opened"),
      ("wait 30m", "Waiting until 2026-05-04 09:30:00", "★ Unlocked half-hour"),
      ("back", "Closed Quiz", "Script error: plugin 'faulty': pack.lua:8: no leaving"),
      ("bg", "App in the background", "★ +1 points from watch: paused"),
      ("wait 31m", "Waiting until", ""),
      ("fg", "App back in the foreground, active", "★ Unlocked second-session"),
    ]
    for step in steps {
      let before = sim.log.count
      try sim.perform(step.command)
      let lines = sim.log.dropFirst(before).map(\.text)
      #expect(lines.first?.hasPrefix(step.own) == true, "\(step.command): \(lines)")
      if !step.caused.isEmpty {
        #expect(lines.dropFirst().contains { $0.hasPrefix(step.caused) }, "\(step.command): \(lines)")
      }
    }
  }

  /// A check the sandbox turned off (an error, its budget) is shown disabled, with why, in
  /// the view, in 'rules' and in 'explain'; the checks that run are shown as before.
  @Test func aDisabledCheckIsShownDisabledWithWhy() throws {
    let dir = try Self.pack(
      """
      unlock "broken" { check = function(u) return u.app.seconds > minute(1) end }
      unlock "spins" { check = function(u) while true do end end }
      unlock "fine" { check = function(u) return u.app.seconds >= hours(1) end }
      unlock "raises" { title = "Raises", check = function(u) error("nope") end }
      """)
    let sim = try Self.sim(dir)
    for command in ["open Lessons", "wait 1m"] { try sim.perform(command) }
    let rules = sim.execute("rules").split(separator: "\n").map(String.init)
    func line(_ id: String) -> String { rules.first { $0.contains(" \(id) ") } ?? "" }
    #expect(line("broken").hasPrefix("✗ broken"), "\(rules)")
    #expect(line("broken").contains("disabled: pack.lua:1: minute() is not a Dwell helper"), "\(rules)")
    #expect(line("spins").hasPrefix("✗ spins") && line("spins").contains("disabled: pack.lua:2: instruction budget"))
    #expect(line("raises").hasPrefix("✗ raises") && line("raises").contains("disabled: pack.lua:4: nope"))
    #expect(line("fine").hasPrefix("· fine") && !line("fine").contains("disabled"), "\(rules)")
    #expect(sim.render(width: 100, height: 30, color: false).contains("✗ broken"))
    #expect(
      sim.execute("explain raises").contains("The check is disabled (the sandbox turned it off): pack.lua:4: nope"))
  }

  /// A plugin the sandbox turned off (an error, its budget) is shown as a disabled check is:
  /// ✗, its name and why, in 'rules' and in the view; a plugin that runs is not listed.
  @Test func aDisabledPluginIsShownDisabledWithWhy() throws {
    let dir = try Self.pack(
      """
      unlock "fine" { when = { sessions = 1000 } }
      local raises = plugin "raises"
      raises.on("tick", function(u) error("nope") end)
      local spins = plugin "spins"
      spins.on("tick", function(u) while true do end end)
      local counts = plugin "counts"
      counts.on("tick", function(u) counts.state.n = (counts.state.n or 0) + 1 end)
      """)
    let sim = try Self.sim(dir)
    for command in ["open Lessons", "wait 1m"] { try sim.perform(command) }
    let rules = sim.execute("rules").split(separator: "\n").map(String.init)
    func line(_ name: String) -> String { rules.first { $0.contains(" \(name) ") } ?? "" }
    #expect(
      line("raises").hasPrefix("✗ raises") && line("raises").contains("disabled: plugin 'raises': pack.lua:3: nope"),
      "\(rules)")
    #expect(line("spins").hasPrefix("✗ spins") && line("spins").contains("disabled: plugin 'spins'"), "\(rules)")
    #expect(line("counts").isEmpty, "\(rules)")
    #expect(line("fine").hasPrefix("· fine"), "\(rules)")
    #expect(sim.render(width: 100, height: 30, color: false).contains("✗ raises"))
  }

  /// A reload that unlocks says first that the rules reloaded, then what unlocked.
  @Test func reloadUnlocksAreLoggedAfterTheReload() throws {
    let dir = try Self.pack(#"unlock "a" { when = { screen = "Lessons", seconds = minutes(30) } }"#)
    let sim = try Self.sim(dir)
    for command in ["open Lessons", "wait 20m"] { try sim.perform(command) }
    try #"unlock "a" { when = { screen = "Lessons", seconds = minutes(15) } }"#.write(
      toFile: dir.directory + "/pack.lua", atomically: false, encoding: .utf8)
    try sim.perform("touch")
    let lines = sim.log.map(\.text)
    let reloaded = try #require(lines.firstIndex { $0.hasPrefix("Rules reloaded") })
    let unlocked = try #require(lines.firstIndex { $0.hasPrefix("★ Unlocked a") })
    #expect(reloaded < unlocked)
  }

  /// A reload keeps what the plugins kept: a one-time award is not paid again after it
  /// (the plugin's state goes to the reloaded pack, also when the reload comes the second
  /// after the award, before the checkpoint every 2 s of use has taken it).
  @Test(arguments: ["wait 11m", "wait 10m 1s"])
  func aReloadKeepsThePluginsState(_ wait: String) throws {
    let dir = try Self.pack(
      """
      unlock "never" { when = { sessions = 1000 } }
      local p = plugin "once"
      p.on("tick", function(u)
        if u.app.seconds >= 601 and not p.state.paid then
          p.state.paid = true
          p.award(20, "ten minutes and a second")
        end
      end)
      """)
    let sim = try Self.sim(dir)
    for command in ["open Lessons", wait, "reload", "wait 11m", "reload", "wait 2s"] { try sim.perform(command) }
    let awards = sim.log.map(\.text).filter { $0.contains("points from once") }
    #expect(awards.count == 1, "\(awards)")
    #expect(sim.execute("status").contains("Points 20"), "\(sim.execute("status"))")
  }

  /// A save made before the first command is not missed.
  @Test func anEditBeforeTheFirstCommandReloads() throws {
    let dir = try Self.pack(#"unlock "a" { when = { screen = "Lessons", seconds = minutes(10) } }"#)
    let sim = try Self.sim(dir)
    try #"unlock "a" { when = { screen = "Lessons", seconds = minutes(15) } }"#.write(
      toFile: dir.directory + "/pack.lua", atomically: true, encoding: .utf8)
    try sim.perform("touch")
    #expect(Self.text(sim).contains("Rules reloaded: 1 rule"))
    #expect(sim.execute("rules").contains("of 15 min in Lessons"))
  }

  @Test func pluginAwardsAreLogged() throws {
    let dir = try Self.pack(
      #"local p = plugin "welcome" p.on("session_start", function(u) p.award(5, "daily login") end)"#)
    let sim = try Self.sim(dir)
    for command in ["bg", "wait 1h", "fg"] { try sim.perform(command) }
    #expect(Self.text(sim).contains("★ +5 points from welcome: daily login"))
    #expect(sim.execute("status").contains("Points 10"))
  }

  /// Every line of the view fits in display columns: colour codes take none (the header
  /// is not cut early), wide names take two, rule bars do not wrap, errors wrap whole.
  @Test(arguments: [60, 80, 120])
  func theViewFitsItsWidth(width: Int) throws {
    let dir = try Self.pack(
      (1...12).map {
        #"unlock "a-rule-with-a-rather-long-name-\#($0)" { when = { screen = "S", seconds = \#($0 * 60) } }"#
      }
      .joined(separator: "\n"))
    let sim = try Self.sim(dir)
    sim.answerWidth = width
    for name in ["瞑想の時間", "Sleep Well", "深い呼吸と静かな朝の瞑想セッション", "🧘 Breathe"] { try sim.perform("open \(name)") }
    try sim.perform("wait 5m")
    try "unlock \"broken\" { when = { sessions = 1 }".write(
      toFile: dir.directory + "/pack.lua", atomically: true, encoding: .utf8)
    try sim.perform("touch")
    let view = sim.render(width: width, height: 24, color: true)
    let lines = view.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.count <= 24)
    for line in lines { #expect(TerminalText.width(line) <= width, "\(line)") }
    #expect(lines[0].contains("t=300s") || width < 80)  // colour codes no longer count
    let plain = sim.render(width: width, height: 24, color: false)
    // The error names the file (within the pack), the line and the reason, wrapped whole.
    #expect(plain.contains(" pack.lua:1:"))
    let words = plain.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(words.contains("pack.lua:1: the '{' opened here is never closed; add '}'"))
    for line in sim.execute("rules").split(separator: "\n") { #expect(TerminalText.width(String(line)) <= width) }
    for line in (Simulator.help + "\n" + Simulator.commandTable).split(separator: "\n") {
      #expect(TerminalText.width(String(line)) <= 80)
    }
  }

  @Test func displayWidths() {
    #expect(TerminalText.width("\u{1B}[1mDwell\u{1B}[0m sim") == 9)
    #expect(TerminalText.width("瞑想") == 4)
    #expect(TerminalText.width("★ ✓ · █░") == 8)
    #expect(TerminalText.width("🧘") == 2)
    #expect(TerminalText.fit("瞑想の時間", 5) == "瞑想…")
    #expect(TerminalText.wrap("aaa bbb ccc", 7, indent: 2) == ["aaa bbb", "  ccc"])
    #expect(TerminalText.wrap("  Practise daily", 12, indent: 2) == ["  Practise", "    daily"])
  }
}
