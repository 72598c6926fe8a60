public import Dwell
internal import DwellLua
internal import DwellTesting
public import Foundation

/// The session simulator behind `dwell sim` and `dwell test`: a simulated app on a manual
/// clock, driven by short commands, with the real engine, a real store and live-reloaded rules.
///
/// ```swift
/// let sim = try Simulator(options: .init(rulesPath: "rules/learning"))
/// try sim.perform("open Lessons")
/// try sim.perform("wait 30m")
/// print(sim.render(width: 80, height: 24, color: false))
/// ```
public final class Simulator: @unchecked Sendable {
  // @unchecked: the world is touched only under `lock`, the log only under `logLock`.

  /// How the simulator starts.
  public struct Options: Sendable {
    /// Rules: a `.lua` or `.json` file, or a directory; `nil` for none.
    public var rulesPath: String?
    /// The store file; `nil` for a temporary one, removed when the simulator closes.
    public var storePath: String?
    /// The wall-clock time the simulation starts at.
    public var start: WallInstant
    /// The time zone it starts in.
    public var timeZone: TimeZone
    /// The engine's configuration (idle timeout, session timeout...); rules are replaced.
    package var configuration: Engine.Configuration
    /// Other files the session reads (its script), which `record` must not overwrite.
    package var inputs: [String] = []

    /// Creates options; by default the simulation starts today at 09:00 in the current zone.
    package init(
      rulesPath: String? = nil, storePath: String? = nil, start: WallInstant? = nil, timeZone: TimeZone = .current,
      configuration: Engine.Configuration = Engine.Configuration()
    ) {
      self.rulesPath = rulesPath
      self.storePath = storePath
      self.timeZone = timeZone
      self.configuration = configuration
      if let start {
        self.start = start
      } else {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let nine = calendar.date(bySettingHour: 9, minute: 0, second: 0, of: Date()) ?? Date()
        self.start = WallInstant(nine)
      }
    }
  }

  /// A line of the log.
  public struct LogLine: Sendable, Equatable {
    /// What kind of line.
    public enum Kind: Sendable { case info, event, unlock, notification, error }
    /// Simulated local time, "05-04 10:12:00".
    public var time: String
    /// The text.
    public var text: String
    /// Its kind.
    public var kind: Kind
  }

  /// A command that could not run: an unknown verb, a bad argument, a limit.
  public struct CommandError: Error, CustomStringConvertible, Sendable {
    /// What is wrong and what to type instead.
    public var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
  }

  /// Where the app is in its lifecycle.
  enum AppState: String, Sendable {
    case notRunning = "not running"
    case inactive, active, background
  }

  struct Entry {
    var name: String
    var id: String
    var isSheet: Bool
  }

  let options: Options
  let lock = NSLock()
  let logLock = NSLock()
  var clock = ManualClock()
  var wall: ManualWallClock
  var engine: Engine?
  var appState = AppState.notRunning
  var stack: [Entry] = []
  var history: [String] = []
  var trace: [TraceEvent] = []
  /// The rules loaded (titles, levels, diagnostics); ``inForce`` holds them as the engine runs them.
  var source: RuleSource?
  /// The rules in force, the one way they get into the engine (``use(_:)`` changes them).
  let inForce = RulesInForce()
  /// The pack the log's handlers are attached to: each pack gets them once, not at every
  /// launch (the log repeated each line once per launch).
  var attached: ObjectIdentifier?
  /// Reloads applied so far: `reload` after a save is one reload, not the save's and its own.
  var reloads = 0
  var nextID = 0
  let storePath: String
  let ownsStore: Bool
  var watcher: RuleWatcher?
  /// A watcher that is never started: `checkNow()` runs its handler on the caller.
  var poller: RuleWatcher?
  var closed = false
  /// Columns for the answers of `rules`, `status` and `explain` (the CLI sets the
  /// terminal's width, from any thread).
  public var answerWidth: Int {
    get { logLock.withLock { columns } }
    set { logLock.withLock { columns = max(20, newValue) } }
  }
  var columns = 80
  /// The log (under `logLock`): the last 1,000 lines.
  var logLines: [LogLine] = []
  /// Lines dropped from the front of the log (it keeps the last 1,000).
  var dropped = 0
  /// What the running command caused so far (under `logLock`), logged after its own lines;
  /// `nil` between commands.
  var caused: [LogLine]?
  /// Notifications plugins posted, "Title: body", oldest first.
  var posted: [String] = []
  /// Plugins whose code changed at a reload, until `state PLUGIN keep|reset` (``Simulator+Plugins``).
  var changedPlugins = Set<String>()
  /// Each unlocked rule's condition when it unlocked, in words, by rule id.
  var unlockedUnder: [String: String] = [:]
  /// Every unlock and earning announced in this world, in order (under `logLock`), for the
  /// fuzzer's invariants: an announcement made twice is a breach.
  var announcements: [UnlockRecord] = []
  /// Called (on any thread) after the state changed outside a command (a hot reload).
  public var onChange: (@Sendable () -> Void)?

  /// Starts a simulation: loads the rules, launches the app and makes it active.
  ///
  /// - Throws: ``CommandError`` naming the file, line and rule when the rules do not load.
  public init(options: Options) throws {
    self.options = options
    ownsStore = options.storePath == nil
    storePath =
      options.storePath
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("dwell-sim-\(UUID().uuidString).sqlite").path
    wall = ManualWallClock(clock: clock, wall: options.start, timeZone: options.timeZone)
    if let path = options.rulesPath {
      // Watching starts before loading, so a save made at any time after is seen.
      poller = RuleWatcher(path: path, limits: .tools) { [weak self] result in self?.applyReload(result) }
      do {
        try use(try RuleSource.load(path, limits: .tools))
      } catch {
        throw CommandError("the rules do not load: \(error)")
      }
    }
    do {
      try start()
    } catch {
      close()
      guard let path = options.storePath else { throw error }
      // What the app would do (move it aside, start a fresh store) is not the simulator's
      // to do to a store someone pointed it at: it says why and does not start.
      throw CommandError(
        "the store \(path) cannot be used: \(error.message). The app would start a fresh store "
          + "(a damaged one moved aside to \(path).corrupt-<time>); 'dwell check \(path)' says what is "
          + "wrong; give another --store to simulate")
    }
  }

  deinit { close() }

  /// Stops watching, ends the app, and removes the temporary store with its WAL, shared
  /// memory and journals. Safe to call more than once; the simulator is unusable after.
  public func close() {
    lock.withLock {
      guard !closed else { return }
      closed = true
      watcher?.stop()
      engine?.terminate()
      engine = nil
      if ownsStore { Store.removeFiles(at: storePath) }
    }
  }

  /// Launches the app and makes it active.
  ///
  /// - Throws: ``CommandError`` when the app does not start (its store does not open).
  func start() throws(CommandError) {
    let rules = source?.rules.count ?? 0
    note(
      options.rulesPath.map { "Rules: \($0) (\(rules) rule\(rules == 1 ? "" : "s"))" }
        ?? "No rules loaded (--rules PATH)",
      .info)
    try launch()
    record(.active)
    appState = .active
  }

  // MARK: Commands

  /// Runs one command line and returns what it prints besides the log.
  ///
  /// - Throws: ``CommandError`` for an unknown command or a bad argument (nothing ran).
  @discardableResult
  public func perform(_ line: String) throws(CommandError) -> String {
    lock.lock()
    defer { lock.unlock() }
    return try run(line, recordHistory: true)
  }

  /// Runs one command line; a mistake is written to the log instead of thrown.
  @discardableResult
  public func execute(_ line: String) -> String {
    do {
      return try perform(line)
    } catch {
      note(error.message, .error)
      return ""
    }
  }

  func run(_ line: String, recordHistory: Bool) throws(CommandError) -> String {
    let words = try Self.words(line)
    guard let verb = words.first?.lowercased() else { return "" }
    guard let command = Self.command(named: verb) else {
      let names = Self.commands.flatMap(\.names)
      let hint = Spelling.closest(to: verb, in: names).map { "did you mean '\($0)'? " } ?? ""
      throw CommandError("unknown command '\(verb)'; \(hint)type 'help' for the list")
    }
    // `reload` looks for a change itself (reloading once either way).
    if watcher == nil && command.names.first != "reload" { reloadIfChanged(force: false) }
    let output = try logConsequences { () throws(CommandError) -> String in
      do {
        return try command.run(self, Array(words.dropFirst()))
      } catch let error as CommandError {
        throw error
      } catch {
        throw CommandError("\(error)")
      }
    }
    if recordHistory && command.isRecorded { history.append(line) }
    return output
  }

  /// The words of a command line; a quoted part ("Sleep Well") is one word without its quotes.
  static func words(_ line: String) throws(CommandError) -> [String] {
    var words: [String] = []
    var current = ""
    var quote: Character?
    var started = false
    for character in line {
      if let open = quote {
        if character == open { quote = nil } else { current.append(character) }
      } else if character == "\"" || character == "'" {
        quote = character
        started = true
      } else if character.isWhitespace {
        if started || !current.isEmpty { words.append(current) }
        current = ""
        started = false
      } else {
        current.append(character)
      }
    }
    guard quote == nil else { throw CommandError("a quote is not closed: \(line)") }
    if started || !current.isEmpty { words.append(current) }
    return words
  }
}
