internal import Dispatch
internal import Dwell
internal import DwellHarness
internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// `dwell sim`: the simulator in a terminal (a live view), or driven line by line by a
/// script or a pipe, where a line that fails stops the run with its line number.
enum SimCommand {
  static let command = Command(
    name: "sim",
    summary: "Simulate sessions by hand while writing rules (the harness)",
    discussion: """
      A simulated app on a manual clock, for trying rules without building an app.
      Type commands; the view shows the clock, the screens, the totals, every rule
      with its progress, and a log. Saving a rules file reloads it at once; a broken
      file is reported with its file, line and fix, and the previous rules keep
      running.
      """,
    options: [
      .value("rules", "DIR|FILE", "Rules to load and watch", default: "rules/ if it exists"),
      .value(
        "store", "PATH", "Keep the store at PATH; a store that does not open is refused",
        default: "a temporary file, removed on exit"),
      .value("start", "DATE", "Start at this local time, \"YYYY-MM-DD HH:MM\"", default: "today 09:00"),
      .value("tz", "ZONE", "Time zone", default: "the system's"),
    ] + Command.Option.timeouts + [
      .value("script", "FILE", "Run the commands in FILE (- for stdin) and print the log"),
      .flag("watch", "With --script or a pipe: reload saved rules while it runs"),
    ],
    sections: [
      .init("COMMANDS", Simulator.commandTable),
      .init(
        "SCRIPTS",
        """
        One command a line, as typed; '#' starts a comment; 'exit' ends. With
        --script FILE, or commands piped in, each line runs as it arrives and the log
        is printed. A line that fails (an unknown command, a bad argument) stops the
        run: the error names the line (session.txt:3: ...) and the exit code is 1.
        """),
      .init(
        "THE VIEW",
        """
        The app starts launched and active. 'active', 'fg', 'next day' and 'skip'
        make it active; 'launch' leaves it inactive. Only active time counts.
        wait takes 90s, 10m, 1h30m, 1.5h, 2d, 1w or seconds (45), at most 3650 days.
        'Screens today/all: Lessons 10m 00s/1h 10m' is today's time / all time.
        Levels go by points; the level shown is the highest whose points are reached.
        A plugin's unlock(id) unlocks only a rule its own pack declares.
        """),
      .init(
        "EXAMPLE",
        """
        $ dwell sim --rules rules/learning --start "2026-05-04 09:00"
        > open Lessons
        05-04 09:00:00  Opened Lessons
        05-04 09:00:00  ★ Achievement first-lesson "First lesson" (+10 points)
        > wait 30m
        05-04 09:00:00  Waiting until 2026-05-04 09:30:00
        05-04 09:10:00  ★ Achievement lesson-time/bronze "Lesson time" (+10 points)
        05-04 09:30:00  ★ Unlocked bonus-level "Bonus level"
        """),
    ],
    run: run)

  static func run(_ args: Arguments) throws {
    // A reader that goes away (a closed pipe) must not kill the sim before it cleans up.
    signal(SIGPIPE, SIG_IGN)
    let simulator: Simulator
    do {
      simulator = try Simulator(options: try options(args))
    } catch let error as UsageError {
      throw error
    } catch {
      throw CommandFailure("\(error)")
    }
    defer { simulator.close() }
    if let script = args.value("script"), script != "-" {
      guard let handle = FileHandle(forReadingAtPath: script) else {
        throw CommandFailure("cannot read \(script): no such file, or not readable")
      }
      defer { try? handle.close() }
      try runScript(LineReader(fd: handle.fileDescriptor), name: script, simulator, watch: args.flag("watch"))
    } else if args.value("script") == nil, isatty(0) == 1, isatty(1) == 1 {
      interactive(simulator)
    } else {
      try runScript(LineReader(fd: 0), name: "stdin", simulator, watch: args.flag("watch"))
    }
  }

  static func options(_ args: Arguments) throws -> Simulator.Options {
    var zone = TimeZone.current
    if let name = args.value("tz") {
      do {
        zone = try TimeZoneName.zone(name)
      } catch {
        throw UsageError("--tz: \(error.message)")
      }
    }
    var options = Simulator.Options(timeZone: zone)
    options.rulesPath = args.value("rules") ?? (FileManager.default.fileExists(atPath: "rules") ? "rules" : nil)
    options.storePath = args.value("store")
    options.inputs = args.value("script").map { [$0] } ?? []
    try args.applyTimeouts(to: &options.configuration)
    if let text = args.value("start") {
      guard let start = Simulator.parseStart(text, zone: zone) else {
        throw UsageError("--start takes a local date and time from 1970 to 2200, such as \"2026-05-04 09:00\"")
      }
      options.start = start
    }
    return options
  }

  /// Line mode: echo each command as it arrives, print its answer and the log lines it
  /// added; a command that fails ends the run with `name:line:` and exit code 1.
  static func runScript(_ reader: LineReader, name: String, _ simulator: Simulator, watch: Bool) throws {
    let printer = LogPrinter(simulator)
    printer.flush()
    if watch {
      simulator.onChange = { printer.flush() }
      simulator.watchRules()
    }
    var number = 0
    while let raw = reader.next() {
      number += 1
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      if line == "exit" { break }
      // The command line echoed and its answer may quote a user's or a pack's text.
      printer.write("> \(escapingControls(line))")
      do {
        let answer = try simulator.perform(line)
        printer.flush()
        if !answer.isEmpty { printer.write(TextLines.lines(of: answer).map(escapingControls).joined(separator: "\n")) }
      } catch {
        printer.flush()
        throw CommandFailure("\(name):\(number): \(error.message)")
      }
    }
    if reader.isOverlong {
      throw CommandFailure("\(name):\(number + 1): a line longer than \(LineReader.lineLimit >> 10) KiB")
    }
  }

  static func interactive(_ simulator: Simulator) {
    let screen = LiveScreen(simulator, color: Terminal.wantsColor)
    simulator.onChange = { screen.draw() }
    simulator.watchRules()
    let queue = DispatchQueue(label: "dwell.sim.signals")
    let sources = [
      Terminal.on(SIGWINCH, queue: queue) { screen.draw() },
      // The terminal drops the line typed so far; say so instead of ending the session.
      Terminal.on(SIGINT, queue: queue) { screen.draw(answer: "Line cleared (type 'exit' to leave).") },
      Terminal.on(SIGTERM, queue: queue) {
        simulator.close()
        exit(143)
      },
      Terminal.on(SIGHUP, queue: queue) {
        simulator.close()
        exit(129)
      },
    ]
    screen.draw(answer: "Type 'help' for the commands, 'exit' to leave.")
    let reader = LineReader(fd: 0)
    while let line = reader.next() {
      let command = line.trimmingCharacters(in: .whitespaces)
      if command == "exit" || command == "q" { break }
      simulator.answerWidth = Terminal.size().width
      screen.draw(answer: command.isEmpty ? "" : simulator.execute(command))
    }
    for source in sources { source.cancel() }
    Terminal.write("\n")
  }
}
