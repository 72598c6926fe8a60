/// The declaration of a `dwell` command (name, summary, arguments, options with their help,
/// what it runs), from which both its parsing and its `--help` text are made.
struct Command: Sendable {
  /// One or more words: `replay`, `rules check`.
  var name: String
  /// One line for the list in `dwell --help`.
  var summary: String
  /// Paragraphs under the usage line of `dwell NAME --help`.
  var discussion: String
  /// The positional arguments, in order; each is required.
  var arguments: [Argument] = []
  /// The options; `--help` is added to every command.
  var options: [Option] = []
  /// Titled blocks after the options, such as EXAMPLES.
  var sections: [Section] = []
  /// Internal commands (children of the soak tests) run but are not listed.
  var isHidden = false
  /// The work, given arguments already checked against the declaration.
  var run: @Sendable (Arguments) throws -> Void

  /// A positional argument: its placeholder (`TRACE`) and what it is.
  struct Argument: Sendable {
    var name: String
    var help: String
    /// May be left out; optional arguments come last.
    var isOptional = false
    init(_ name: String, _ help: String, optional: Bool = false) {
      self.name = name
      self.help = help
      isOptional = optional
    }

    /// `NAME`, or `[NAME]` when optional.
    var synopsis: String { isOptional ? "[\(name)]" : name }
  }

  /// A titled block of help text, printed as it is, indented.
  struct Section: Sendable {
    var title: String
    var body: String
    init(_ title: String, _ body: String) {
      self.title = title
      self.body = body
    }
  }

  /// The option every command takes.
  static let helpOption = Option.flag("help", "Show this help")

  /// Parses `raw` (what follows the command's name) against the declaration.
  func parse(_ raw: [String]) throws(UsageError) -> Arguments {
    let all = options + [Self.helpOption]
    let parsed = try Arguments(raw, options: all)
    guard !parsed.flag("help") else { return parsed }
    let required = arguments.filter { !$0.isOptional }.count
    guard (required...arguments.count).contains(parsed.positionals.count) else {
      let wanted =
        arguments.isEmpty
        ? "no positional arguments" : arguments.map(\.synopsis).joined(separator: " ")
      throw UsageError("\(name) takes \(wanted); run 'dwell \(name) --help'")
    }
    return parsed.naming(arguments.map(\.name))
  }

  /// Runs the command on `raw`, or prints its help when `--help` is among them.
  func callAsFunction(_ raw: [String]) throws {
    let arguments = try parse(raw)
    if arguments.flag("help") { return Terminal.print(help) }
    try run(arguments)
  }

  /// `dwell NAME --help`.
  var help: String {
    let prefix = "USAGE: dwell \(name) "
    var text = Help.wrap(
      words: arguments.map(\.synopsis) + options.map { "[\($0.synopsis)]" }, after: prefix, indent: prefix.count)
    text += "\n\n" + discussion
    if !arguments.isEmpty {
      text += "\n\nARGUMENTS:\n" + Help.table(arguments.map { ($0.name, $0.help) })
    }
    text += "\n\nOPTIONS:\n" + Help.table((options + [Self.helpOption]).map { ($0.synopsis, $0.helpText) })
    for section in sections {
      text +=
        "\n\n\(section.title):\n"
        + section.body.split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
    }
    return text
  }

  /// `NAME ARGUMENTS`, as listed in `dwell --help`.
  var synopsis: String { ([name] + arguments.map(\.synopsis)).joined(separator: " ") }
}
