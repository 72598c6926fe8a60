internal import Dwell
internal import DwellHarness
internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

enum SimCommand {
  static let command = Command(
    name: "sim",
    summary: "Simulate sessions by hand while writing rules (the harness)",
    discussion: """
      A simulated app on a manual clock, for trying rules without building an app. The app
      starts launched and active. Type commands; the view shows the clock, the screens, the
      totals, every rule with its progress, and a log. Saving a rules file reloads it at
      once; a broken file is reported and the previous rules keep running.
      """,
    options: [
      .value("rules", "DIR|FILE", "Rules to load and watch (default: rules/ if it exists)"),
      .value("store", "PATH", "Keep the store at PATH (default: a temporary file)"),
      .value("start", "DATE", "Start at this local date and time, \"YYYY-MM-DD HH:MM\" (default: today 09:00)"),
      .value("tz", "ZONE", "Time zone (default: the system's)"),
      .value("idle-timeout", "S", "Stop counting S seconds after the last touch (default off)"),
      .value("session-timeout", "S", "Gap that starts a new session (default 1800)"),
      .value("script", "FILE", "Run the commands in FILE (- for stdin) and print the log"),
    ],
    sections: [
      .init("COMMANDS", Simulator.help),
      .init(
        "EXAMPLE",
        """
        dwell sim --rules rules/learning
        > open Lessons
        > wait 30m
        12:05:00 ★ Unlocked bonus-level "Bonus level"
        """),
    ],
    run: run)

  static func run(_ args: Arguments) throws {
    var zone = TimeZone.current
    if let name = args.value("tz") {
      guard let parsed = TimeZone(identifier: name) else {
        throw UsageError("--tz takes an IANA time zone, not '\(name)'")
      }
      zone = parsed
    }
    var options = Simulator.Options(timeZone: zone)
    options.rulesPath = args.value("rules") ?? (FileManager.default.fileExists(atPath: "rules") ? "rules" : nil)
    options.storePath = args.value("store")
    options.configuration.idleTimeout = try args.seconds("idle-timeout")
    if let timeout = try args.seconds("session-timeout") { options.configuration.sessionTimeout = timeout }
    if let text = args.value("start") {
      guard let start = parseStart(text, zone: zone) else {
        throw UsageError("--start takes a local date and time, such as \"2026-05-04 09:00\"")
      }
      options.start = start
    }
    let simulator: Simulator
    do {
      simulator = try Simulator(options: options)
    } catch {
      throw Failure("\(error)")
    }
    if let script = args.value("script") {
      let text =
        script == "-"
        ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) : try Files.read(script)
      runLines(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), simulator)
    } else if isatty(0) == 1 && isatty(1) == 1 {
      interactive(simulator)
    } else {
      var lines: [String] = []
      while let line = readLine() { lines.append(line) }
      runLines(lines, simulator)
    }
  }

  static func parseStart(_ text: String, zone: TimeZone) -> WallInstant? {
    let parts = text.replacingOccurrences(of: "T", with: " ").split(separator: " ")
    guard let first = parts.first, let day = Day(first) else { return nil }
    var hour = 9
    var minute = 0
    if parts.count > 1 {
      let hm = parts[1].split(separator: ":")
      guard hm.count >= 2, let h = Int(hm[0]), let m = Int(hm[1]), (0..<24).contains(h), (0..<60).contains(m) else {
        return nil
      }
      (hour, minute) = (h, m)
    }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let c = day.components
    return calendar.date(from: DateComponents(year: c.year, month: c.month, day: c.day, hour: hour, minute: minute))
      .map(WallInstant.init)
  }

  /// Line mode: echo each command, print its answer and the log lines it added.
  static func runLines(_ lines: [String], _ simulator: Simulator) {
    var seen = 0
    func flush() {
      let fresh = simulator.log(since: seen)
      seen = fresh.count
      for line in fresh.lines { print(line) }
    }
    flush()
    for raw in lines {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      if line == "exit" { break }
      print("> \(line)")
      let answer = simulator.execute(line)
      flush()
      if !answer.isEmpty { print(answer) }
    }
  }

  static func interactive(_ simulator: Simulator) {
    let color = Terminal.wantsColor
    let output = FileHandle.standardOutput
    let draw: @Sendable (String) -> Void = { answer in
      let (width, height) = Terminal.size()
      var screen =
        "\u{1B}[H\u{1B}[2J"
        + simulator.render(width: width, height: height - 1 - answer.split(separator: "\n").count, color: color)
      if !answer.isEmpty { screen += "\n" + answer }
      screen += "\n> "
      output.write(Data(screen.utf8))
    }
    simulator.onChange = { draw("") }
    simulator.watchRules()
    draw("Type 'help' for the commands, 'exit' to leave.")
    while let line = readLine() {
      let command = line.trimmingCharacters(in: .whitespaces)
      if command == "exit" || command == "q" { break }
      let answer = command.isEmpty ? "" : simulator.execute(command)
      draw(answer)
    }
    output.write(Data("\n".utf8))
  }
}
