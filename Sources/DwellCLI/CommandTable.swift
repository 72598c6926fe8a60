/// The `dwell` tool's command table: every command, the top-level help made from it, and
/// the dispatch from the first words of a command line to a command.
enum CommandTable {
  static let version = "0.1.0"

  /// Every command, in the order `dwell --help` lists them.
  static let all: [Command] = [
    ReplayCommand.command,
    ReportCommand.command,
    DemoCommand.command,
    SimCommand.command,
    TestCommand.command,
    BalanceCommand.command,
    StoreCommands.exportCommand,
    StoreCommands.eraseCommand,
    StoreCommands.checkCommand,
    RulesCommand.command,
    KillSoakCommand.command,
    DiskSoakCommand.command,
    KillSoakCommand.childCommand,
    KillSoakCommand.sharingCommand,
  ]

  /// `dwell --help`: the listed commands with their summaries.
  static var help: String {
    let listed = all.filter { !$0.isHidden }
    return """
      dwell \(version): on-device screen-time accounting and unlock rules

      USAGE: dwell <command> [options]

      COMMANDS:
      \(Help.table(listed.map { ($0.synopsis, $0.summary) }))

      Run 'dwell <command> --help' for a command's options.
      Exit codes: 0 ok, 1 failure, 2 usage error.
      """
  }

  /// Runs the command that `arguments` starts with (`replay ...`, `rules check ...`), or
  /// prints the version or help.
  static func run(_ arguments: [String]) throws {
    guard let first = arguments.first else { return Terminal.print(help) }
    switch first {
    case "--version", "version":
      return Terminal.print(version)
    case "--help", "-h", "help":
      let rest = Array(arguments.dropFirst())
      return Terminal.print(rest.isEmpty ? help : try command(for: rest + ["--help"]).command.help)
    default:
      let (command, rest) = try command(for: arguments)
      try command(rest)
    }
  }

  /// The command whose name (one or more words) begins `arguments`, and the arguments after it.
  static func command(for arguments: [String]) throws(UsageError) -> (command: Command, rest: [String]) {
    for command in all {
      let words = command.name.split(separator: " ").map(String.init)
      if arguments.starts(with: words) { return (command, Array(arguments.dropFirst(words.count))) }
    }
    let first = arguments.first ?? ""
    let group = all.filter { $0.name.hasPrefix(first + " ") }
    guard !group.isEmpty else { throw UsageError("unknown command '\(first)'; run 'dwell --help'") }
    // `dwell rules --help` shows the help of the group's (only) subcommand.
    if group.count == 1, arguments.contains("--help") { return (group[0], ["--help"]) }
    let names = group.map { "dwell " + $0.synopsis }.joined(separator: ", ")
    throw UsageError("\(first) takes a subcommand: \(names)")
  }
}
