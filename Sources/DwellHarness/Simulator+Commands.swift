internal import Foundation

/// The simulator's commands as a table: each entry names its verbs, its arguments, one line
/// of help and a small handler; the help text and the dispatch are both made from it.
extension Simulator {
  struct Command: Sendable {
    var names: [String]
    var arguments: String
    var summary: String
    var group: Group
    /// Whether `undo` replays it (commands that only read are not recorded).
    var isRecorded = true
    /// Whether it writes a file: refused in scenario files, whose packs are untrusted.
    var writesFiles = false
    var run: @Sendable (Simulator, [String]) throws -> String
  }

  enum Group: String, CaseIterable, Sendable {
    case app = "App", screens = "Screens", time = "Time", clock = "Clock", rules = "Rules", session = "Session"
  }

  static let commands: [Command] = [
    Command(names: ["launch", "start"], arguments: "", summary: "start the app; inactive until 'active'", group: .app) {
      try $0.launchCommand($1)
    },
    Command(names: ["active"], arguments: "", summary: "make the app active (it counts)", group: .app) {
      try $0.move(.active, $1)
    },
    Command(names: ["inactive"], arguments: "", summary: "a call or Control Centre: not counted", group: .app) {
      try $0.move(.inactive, $1)
    },
    Command(names: ["background", "bg", "home"], arguments: "", summary: "the user leaves the app", group: .app) {
      try $0.move(.background, $1)
    },
    Command(names: ["foreground", "fg", "resume"], arguments: "", summary: "back to the app, active", group: .app) {
      try $0.move(.foreground, $1)
    },
    Command(names: ["quit", "terminate", "kill"], arguments: "", summary: "the app quits cleanly", group: .app) {
      try $0.quit($1)
    },
    Command(names: ["crash"], arguments: "", summary: "killed: what was not saved is lost", group: .app) {
      try $0.crash($1)
    },
    Command(names: ["open", "push"], arguments: "NAME", summary: "push a screen; the one below goes", group: .screens) {
      try $0.open($1)
    },
    Command(names: ["sheet", "present"], arguments: "NAME", summary: "a sheet: the one below stays", group: .screens) {
      try $0.sheet($1)
    },
    Command(
      names: ["back", "pop", "dismiss", "close"], arguments: "", summary: "close the top screen", group: .screens
    ) {
      try $0.back($1)
    },
    Command(names: ["tab"], arguments: "NAME", summary: "switch tab: replaces every screen", group: .screens) {
      try $0.tab($1)
    },
    Command(names: ["touch", "tap"], arguments: "", summary: "a touch (resets --idle-timeout)", group: .screens) {
      try $0.touch($1)
    },
    Command(names: ["do"], arguments: "NAME [COUNT]", summary: "the user did it: do quiz_done 3", group: .screens) {
      try $0.doCommand($1)
    },
    Command(
      names: ["wait", "advance"], arguments: "DURATION", summary: "let time pass: 90s 10m 1h30m 2d 1w", group: .time
    ) {
      try $0.wait($1)
    },
    Command(names: ["wait until"], arguments: "HH:MM", summary: "until that time today (or tomorrow)", group: .time) {
      try $0.wait($1)
    },
    Command(names: ["next"], arguments: "day [HH:MM]", summary: "tomorrow, 09:00 by default; active", group: .time) {
      try $0.nextDay($1)
    },
    Command(names: ["skip"], arguments: "N days", summary: "N days with the app closed; active", group: .time) {
      try $0.skip($1)
    },
    Command(names: ["clock"], arguments: "+2h|-1d", summary: "the user moves the wall clock", group: .clock) {
      try $0.clockCommand($1)
    },
    Command(names: ["clock set"], arguments: "DATE [HH:MM]", summary: "the user sets the date and time", group: .clock)
    {
      try $0.clockCommand($1)
    },
    Command(names: ["tz", "timezone"], arguments: "ZONE", summary: "travel: Asia/Tokyo, Europe/Berlin", group: .clock) {
      try $0.timeZoneCommand($1)
    },
    Command(
      names: ["status"], arguments: "", summary: "clock, app, screens and totals", group: .rules, isRecorded: false
    ) {
      sim, _ in sim.status()
    },
    Command(names: ["rules"], arguments: "", summary: "every rule with its progress", group: .rules, isRecorded: false)
    {
      sim, _ in sim.rulesText(width: sim.answerWidth)
    },
    Command(
      names: ["explain"], arguments: "RULE", summary: "what a rule needs, and what is left", group: .rules,
      isRecorded: false
    ) {
      try $0.explainCommand($1)
    },
    Command(
      names: ["state"], arguments: "PLUGIN [keep|reset]", summary: "a plugin's state and published values",
      group: .rules, isRecorded: false
    ) {
      try $0.stateCommand($1)
    },
    Command(names: ["reload"], arguments: "", summary: "reload the rules now", group: .rules, isRecorded: false) {
      sim, _ in
      sim.reloadIfChanged(force: true)
      return ""
    },
    Command(names: ["undo"], arguments: "", summary: "take back the last command", group: .session, isRecorded: false) {
      try $0.undo($1)
    },
    Command(
      names: ["reset"], arguments: "", summary: "start again from the first instant", group: .session, isRecorded: false
    ) {
      sim, _ in sim.reset()
    },
    Command(
      names: ["record"], arguments: "FILE", summary: "write the session as a trace", group: .session, isRecorded: false,
      writesFiles: true
    ) {
      try $0.recordCommand($1)
    },
    Command(
      names: ["help", "?"], arguments: "", summary: "this list; 'exit' leaves", group: .session, isRecorded: false
    ) {
      _, _ in Simulator.help
    },
  ]

  /// The command a verb names (`wait until` and `clock set` are listed apart but dispatch
  /// through `wait` and `clock`).
  static func command(named verb: String) -> Command? {
    commands.first { $0.names.contains(verb) }
  }

  /// Every command with its arguments, first alias and one line of help, in 80 columns
  /// (for `dwell sim --help`).
  public static let commandTable: String = {
    var lines: [String] = []
    for group in Group.allCases {
      for (index, command) in commands.filter({ $0.group == group }).enumerated() {
        var usage = command.names[0] + (command.arguments.isEmpty ? "" : " " + command.arguments)
        if command.names.count > 1 { usage += " (\(command.names[1]))" }
        let label = index == 0 ? group.rawValue : ""
        lines.append(
          label.padding(toLength: 9, withPad: " ", startingAt: 0)
            + usage.padding(toLength: 28, withPad: " ", startingAt: 0) + command.summary)
      }
    }
    return lines.joined(separator: "\n")
  }()

  /// The commands by group on a few lines, for `help` inside the simulator (80 columns).
  public static let help: String = {
    var lines: [String] = []
    for group in Group.allCases {
      let usages = commands.filter { $0.group == group }.map { command in
        var usage = command.names[0] + (command.arguments.isEmpty ? "" : " " + command.arguments)
        if command.names.count > 1, command.names[1].count <= 3 { usage += " (\(command.names[1]))" }
        return usage
      }
      lines += TerminalText.wrap(
        "\(group.rawValue):".padding(toLength: 9, withPad: " ", startingAt: 0) + usages.joined(separator: " · "), 80,
        indent: 9)
    }
    lines.append("Durations: 90s 10m 1h30m 1.5h 2d 1w, or seconds. More: 'dwell sim --help'.")
    return lines.joined(separator: "\n")
  }()

  func requireRunning() throws(CommandError) {
    guard engine != nil else { throw CommandError("the app is not running: type 'launch' first") }
  }

  func noArguments(_ args: [String], _ verb: String) throws(CommandError) {
    guard args.isEmpty else { throw CommandError("\(verb) takes no arguments, not '\(args.joined(separator: " "))'") }
  }
}
