public import Dwell
internal import DwellLua
internal import DwellTesting
public import Foundation

/// The session simulator behind `dwell sim`: a simulated app on a manual clock, driven by
/// short commands, with the real engine, a real store and live-reloaded rules.
///
/// ```swift
/// let sim = try Simulator(options: .init(rulesPath: "rules/learning"))
/// sim.execute("open Lessons")
/// sim.execute("wait 30m")
/// print(sim.render(width: 80, height: 24, color: false))
/// ```
public final class Simulator: @unchecked Sendable {
  // @unchecked: every mutable property is touched only under `lock` (see `locked`).

  /// How the simulator starts.
  public struct Options: Sendable {
    /// Rules: a `.lua` or `.json` file, or a directory; `nil` for none.
    public var rulesPath: String?
    /// The store file; `nil` for a temporary one.
    public var storePath: String?
    /// The wall-clock time the simulation starts at.
    public var start: WallInstant
    /// The time zone it starts in.
    public var timeZone: TimeZone
    /// The engine's configuration (idle timeout, session timeout...); rules are replaced.
    public var configuration: Engine.Configuration

    /// Creates options; by default the simulation starts today at 09:00 in the current zone.
    public init(
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

  /// Where the app is in its lifecycle.
  public enum AppState: String, Sendable {
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
  private(set) var clock = ManualClock()
  private(set) var wall: ManualWallClock
  private(set) var engine: Engine?
  private(set) var appState = AppState.notRunning
  private(set) var stack: [Entry] = []
  private(set) var log: [LogLine] = []
  private(set) var history: [String] = []
  private(set) var trace: [TraceEvent] = []
  private(set) var source: RuleSource?
  private var nextID = 0
  private var storePath: String
  private let ownsStore: Bool
  private var watcher: RuleWatcher?
  /// Called (on any thread) after the state changed outside a command (a hot reload).
  public var onChange: (@Sendable () -> Void)?

  /// Starts a simulation: loads the rules, launches the app and makes it active.
  public init(options: Options) throws {
    self.options = options
    ownsStore = options.storePath == nil
    storePath =
      options.storePath
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("dwell-sim-\(UUID().uuidString).sqlite").path
    wall = ManualWallClock(clock: clock, wall: options.start, timeZone: options.timeZone)
    if let path = options.rulesPath {
      do {
        source = try RuleSource.load(path)
      } catch {
        throw SimError("the rules do not load: \(error)")
      }
    }
    start()
  }

  deinit {
    watcher?.stop()
    engine?.terminate()
    if ownsStore { Store.removeFiles(at: storePath) }
  }

  private func start() {
    let rules = source?.rules.count ?? 0
    note(
      options.rulesPath.map { "Rules: \($0) (\(rules) rule\(rules == 1 ? "" : "s"))" }
        ?? "No rules loaded (--rules PATH)",
      .info)
    _ = try? launch()
    record(.active)
    appState = .active
  }

  // MARK: Hot reload

  /// Watches the rules for changes in the background (interactive mode).
  public func watchRules() {
    guard let path = options.rulesPath else { return }
    let watcher = RuleWatcher(path: path) { [weak self] result in
      guard let self else { return }
      self.lock.withLock { self.applyReload(result) }
      self.onChange?()
    }
    watcher.start()
    lock.withLock { self.watcher = watcher }
  }

  /// Checks the rules for changes now (script mode, and the `reload` command with `force`).
  /// Runs under the lock.
  func reloadIfChanged(force: Bool) {
    guard let path = options.rulesPath else { return }
    if force {
      do {
        applyReload(.success(try RuleSource.load(path)))
      } catch {
        applyReload(.failure(error))
      }
      return
    }
    if poller == nil {
      poller = RuleWatcher(path: path) { [weak self] result in self?.applyReload(result) }
    }
    poller?.checkNow()
  }

  /// A watcher that is never started: `checkNow()` runs its handler on the caller (locked).
  private var poller: RuleWatcher?

  private func applyReload(_ result: Result<RuleSource, RuleError>) {
    switch result {
    case .success(let fresh):
      source = fresh
      attach(fresh.pack)
      do {
        try engine?.setRules(fresh.rules, listeners: fresh.pack.map { [$0] } ?? [])
        note("Rules reloaded: \(fresh.rules.count) rules", .info)
      } catch {
        note("Rules not reloaded: \(error)", .error)
      }
    case .failure(let error):
      note("Rules not reloaded, the previous ones keep running: \(error)", .error)
    }
  }

  private func attach(_ pack: LuaRulePack?) {
    pack?.onDiagnostic { [weak self] error in self?.note("Script error: \(error)", .error) }
  }

  // MARK: The app

  private var configuration: Engine.Configuration {
    var configuration = options.configuration
    configuration.rules = source?.rules ?? []
    if let pack = source?.pack {
      configuration.levels = pack.levels
      configuration.listeners = pack.plugins.isEmpty ? [] : [pack]
    }
    return configuration
  }

  private func launch() throws {
    guard engine == nil else { throw SimError("the app is already running") }
    let engine = try Engine(
      store: Store(path: storePath), configuration: configuration, clock: clock, wallClock: wall, scheduler: clock)
    engine.onUnlock { [weak self] record in self?.announce(record) }
    engine.onNotification { [weak self] note in
      self?.note("✉ \(note.title)\(note.body.map { ": \($0)" } ?? "") (\(note.source))", .notification)
    }
    engine.onError { [weak self] error in self?.note("Store error: \(error)", .error) }
    attach(source?.pack)
    self.engine = engine
    appState = .inactive
    stack = []
    trace.append(
      TraceEvent(
        line: trace.count + 1, t: clock.now(),
        kind: .launch(wall: trace.isEmpty ? wall.now() : nil, timeZone: trace.isEmpty ? wall.timeZone : nil)))
  }

  private func announce(_ record: UnlockRecord) {
    let rule = source?.rules.first { $0.id == record.rule }
    let title = rule?.title.map { " \"\($0)\"" } ?? ""
    let points = record.points > 0 ? " (+\(record.points) points)" : ""
    let kind = rule?.achievement != nil ? "Achievement" : "Unlocked"
    note("★ \(kind) \(record.rule)\(title)\(points)", .unlock)
  }

  private func record(_ event: LifecycleEvent) {
    guard let engine else { return }
    engine.record(event)
    let kind: TraceEvent.Kind
    switch event {
    case .active: kind = .active
    case .inactive: kind = .inactive
    case .background: kind = .background
    case .foreground: kind = .foreground
    case .terminate: kind = .terminate
    case .interact: kind = .interact
    case .appear(let screen, let id): kind = .appear(screen: screen, id: id.description)
    case .disappear(let id): kind = .disappear(id: id.description)
    case .clockChanged(let wall, let zone): kind = .clock(wall: wall, timeZone: zone)
    }
    trace.append(TraceEvent(line: trace.count + 1, t: clock.now(), kind: kind))
  }

  func note(_ text: String, _ kind: LogLine.Kind) {
    let line = LogLine(time: timeStamp(), text: text, kind: kind)
    let locked = lock.try()
    log.append(line)
    if log.count > 1000 { log.removeFirst(log.count - 1000) }
    if locked { lock.unlock() }
  }

  // MARK: Reading

  /// The local date and time now, "2026-05-04 Mon 10:32:05".
  func localTime() -> (date: String, weekday: String, time: String, hour: Int, minute: Int) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = wall.timeZone
    let date = wall.now().date
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
    let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let day = Day(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1)?.description ?? "?"
    let time = "\(SimDuration.pad(c.hour ?? 0)):\(SimDuration.pad(c.minute ?? 0)):\(SimDuration.pad(c.second ?? 0))"
    return (day, names[((c.weekday ?? 1) - 1) % 7], time, c.hour ?? 0, c.minute ?? 0)
  }

  private func timeStamp() -> String {
    let now = localTime()
    return "\(now.date.dropFirst(5)) \(now.time)"
  }

  /// Names of the visible screens, bottom to top.
  var visible: [Entry] {
    guard let top = stack.indices.last else { return [] }
    var first = top
    while first > 0, stack[first].isSheet { first -= 1 }
    return Array(stack[first...])
  }

  /// The report now (live, or from the store when the app is not running).
  func report() -> UsageReport? {
    if let engine { return engine.report() }
    return try? UsageReport(store: Store(path: storePath, readOnly: true))
  }

  /// The rules' progress now.
  func progress() -> [(rule: Rule, progress: RuleProgress)] {
    if let engine { return engine.progress() }
    return []
  }

  // MARK: Commands

  /// Runs one command line; returns what it prints (besides the log).
  @discardableResult
  public func execute(_ line: String) -> String {
    lock.withLock { run(line, recordHistory: true) }
  }

  private func run(_ line: String, recordHistory: Bool) -> String {
    let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
    guard let verb = words.first?.lowercased() else { return "" }
    let rest = Array(words.dropFirst())
    if watcher == nil { reloadIfChanged(force: false) }
    do {
      let output = try perform(verb, rest, line: line)
      if recordHistory,
        !["status", "rules", "explain", "help", "undo", "reset", "record", "reload", "log", "?"].contains(verb)
      {
        history.append(line)
      }
      return output
    } catch let error as SimError {
      note(error.message, .error)
      return ""
    } catch {
      note("\(error)", .error)
      return ""
    }
  }

  private func requireRunning() throws {
    guard engine != nil else { throw SimError("the app is not running: type 'launch' first") }
  }

  private func perform(_ verb: String, _ args: [String], line: String) throws -> String {
    switch verb {
    case "help", "?": return Self.help
    case "launch", "start":
      try launch()
      note("App launched", .event)
    case "quit", "terminate", "kill":
      try requireRunning()
      if appState == .active { record(.inactive) }
      if appState != .background { record(.background) }
      engine?.terminate()
      endProcess(.terminate, "App quit")
    case "crash":
      try requireRunning()
      engine?.abandon()
      endProcess(.crash, "App crashed (kill -9): what was not checkpointed is lost")
    case "active":
      try requireRunning()
      record(.active)
      appState = .active
      note("App active", .event)
    case "inactive":
      try requireRunning()
      record(.inactive)
      appState = .inactive
      note("App inactive (Control Centre, a call)", .event)
    case "background", "bg", "home":
      try requireRunning()
      if appState == .active { record(.inactive) }
      record(.background)
      appState = .background
      note("App in the background", .event)
    case "foreground", "fg", "resume":
      try requireRunning()
      record(.foreground)
      record(.active)
      appState = .active
      note("App back in the foreground, active", .event)
    case "open", "push":
      try requireRunning()
      let name = try screenName(args, verb)
      let id = newID()
      let covered = visible
      record(.appear(screen: name, id: ScreenInstance(id)))
      for entry in covered { record(.disappear(id: ScreenInstance(entry.id))) }
      stack.append(Entry(name: name, id: id, isSheet: false))
      note("Opened \(name)", .event)
    case "sheet", "present":
      try requireRunning()
      let name = try screenName(args, verb)
      let id = newID()
      record(.appear(screen: name, id: ScreenInstance(id)))
      stack.append(Entry(name: name, id: id, isSheet: true))
      note("Presented \(name) as a sheet (the screen below stays visible)", .event)
    case "back", "pop", "dismiss", "close":
      try requireRunning()
      guard let top = stack.popLast() else { throw SimError("no screen to close") }
      if !top.isSheet {
        for entry in visible { record(.appear(screen: entry.name, id: ScreenInstance(entry.id))) }
      }
      record(.disappear(id: ScreenInstance(top.id)))
      note("Closed \(top.name)", .event)
    case "tab":
      try requireRunning()
      let name = try screenName(args, verb)
      let id = newID()
      record(.appear(screen: name, id: ScreenInstance(id)))
      for entry in visible { record(.disappear(id: ScreenInstance(entry.id))) }
      stack = [Entry(name: name, id: id, isSheet: false)]
      note("Switched to the \(name) tab", .event)
    case "touch", "tap":
      try requireRunning()
      record(.interact)
      note("Touched", .event)
    case "wait", "advance":
      if args.first?.lowercased() == "until" {
        let target = try timeOfDay(args.dropFirst().joined())
        var seconds: Int = target.hour * 3600 + target.minute * 60 - secondsSinceMidnight()
        if seconds <= 0 { seconds += 86400 }
        clock.advance(by: .seconds(seconds))
      } else {
        guard let text = args.first, let duration = SimDuration.parse(args.joined()) ?? SimDuration.parse(text) else {
          throw SimError("wait takes a duration: wait 90s, wait 10m, wait 1h30m, wait until 23:30")
        }
        clock.advance(by: duration)
      }
      note("Waited; now \(localTime().date) \(localTime().time)", .info)
    case "next":
      guard args.first?.lowercased() == "day" else { throw SimError("did you mean 'next day'?") }
      let target = try args.count > 1 ? timeOfDay(args[1]) : (hour: 9, minute: 0)
      if engine != nil, appState == .active {
        record(.inactive)
        record(.background)
      }
      let elapsed: Int = secondsSinceMidnight()
      let wanted: Int = target.hour * 3600 + target.minute * 60
      clock.advance(by: .seconds(86400 - elapsed + wanted))
      if engine == nil { try launch() } else { record(.foreground) }
      record(.active)
      appState = .active
      note("Next day: \(localTime().date) \(localTime().time), app active", .event)
    case "skip":
      guard let count = args.first.flatMap(Int.init), count >= 0, count <= 3650 else {
        throw SimError("skip takes a number of days: skip 3 days")
      }
      if engine != nil { _ = try perform("quit", [], line: "quit") }
      clock.advance(by: .seconds(count * 86400))
      try launch()
      record(.active)
      appState = .active
      note("Skipped \(count) day\(count == 1 ? "" : "s") with the app closed; relaunched", .event)
    case "clock":
      try requireRunning()
      guard let text = args.first else {
        throw SimError("clock takes an offset (clock +2h, clock -3d) or 'set YYYY-MM-DD HH:MM'")
      }
      var target: WallInstant
      if text == "set", args.count >= 2 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = wall.timeZone
        guard let day = Day(args[1]) else { throw SimError("clock set takes a date YYYY-MM-DD and a time HH:MM") }
        let time = try args.count > 2 ? timeOfDay(args[2]) : (hour: 0, minute: 0)
        let parts = day.components
        guard
          let date = calendar.date(
            from: DateComponents(
              year: parts.year, month: parts.month, day: parts.day, hour: time.hour, minute: time.minute))
        else { throw SimError("that date does not exist") }
        target = WallInstant(date)
      } else {
        let sign: Double = text.hasPrefix("-") ? -1 : 1
        guard let offset = SimDuration.parse(String(text.drop { $0 == "+" || $0 == "-" })) else {
          throw SimError("clock takes an offset like +2h or -3d")
        }
        target = WallInstant(nanosecondsSince1970: wall.now().nanosecondsSince1970 + Int64(sign * offset.seconds * 1e9))
      }
      wall.set(target)
      record(.clockChanged(wall: target, timeZone: nil))
      note("The user set the clock to \(localTime().date) \(localTime().time) (durations do not change)", .event)
    case "tz", "timezone":
      try requireRunning()
      guard let name = args.first, let zone = TimeZone(identifier: name) else {
        throw SimError("tz takes an IANA time zone, such as Europe/Berlin or Asia/Tokyo")
      }
      wall.set(timeZone: zone)
      record(.clockChanged(wall: nil, timeZone: zone))
      note("Time zone now \(name): \(localTime().date) \(localTime().time)", .event)
    case "status": return status()
    case "rules": return rulesText()
    case "explain":
      guard let id = args.first else { throw SimError("explain takes a rule id: explain bonus-level") }
      return explain(id)
    case "reload":
      reloadIfChanged(force: true)
    case "record":
      guard let path = args.first else { throw SimError("record takes a file: record session.jsonl") }
      // The file ends the way the process would if it quit now, so replaying it gives the
      // totals shown now.
      var events = trace
      if engine != nil {
        var closing: [TraceEvent.Kind] = appState == .active ? [.inactive] : []
        if appState != .background { closing.append(.background) }
        closing.append(.terminate)
        for kind in closing { events.append(TraceEvent(line: events.count + 1, t: clock.now(), kind: kind)) }
      }
      let text = events.map(\.jsonLine).joined(separator: "\n") + "\n"
      guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
        throw SimError("cannot write \(path)")
      }
      note("Recorded \(events.count) events to \(path) (replay it with: dwell replay \(path))", .info)
    case "undo":
      guard !history.isEmpty else { throw SimError("nothing to undo") }
      let undone = history.removeLast()
      rebuild(history)
      note("Undid '\(undone)'", .info)
    case "reset":
      rebuild([])
      note("Reset: a fresh store, the clock back at the start", .info)
    default:
      throw SimError("unknown command '\(verb)'; type 'help'")
    }
    return ""
  }

  /// The process is gone (quit or crash): record it and forget the engine and its screens.
  private func endProcess(_ kind: TraceEvent.Kind, _ message: String) {
    trace.append(TraceEvent(line: trace.count + 1, t: clock.now(), kind: kind))
    engine = nil
    appState = .notRunning
    stack = []
    note(message, .event)
  }

  private func rebuild(_ commands: [String]) {
    engine?.abandon()
    engine = nil
    Store.removeFiles(at: storePath)
    clock = ManualClock()
    wall = ManualWallClock(clock: clock, wall: options.start, timeZone: options.timeZone)
    stack = []
    trace = []
    nextID = 0
    let kept = log
    history = []
    start()
    for command in commands { _ = run(command, recordHistory: true) }
    log = kept
  }

  private func secondsSinceMidnight() -> Int {
    let now = localTime()
    let second: Int = Int(now.time.suffix(2)) ?? 0
    return now.hour * 3600 + now.minute * 60 + second
  }

  private func newID() -> String {
    nextID += 1
    return "s\(nextID)"
  }

  private func screenName(_ args: [String], _ verb: String) throws -> String {
    let name = args.joined(separator: " ")
    guard !name.isEmpty else { throw SimError("\(verb) takes a screen name: \(verb) Lessons") }
    return name
  }

  private func timeOfDay(_ text: String) throws -> (hour: Int, minute: Int) {
    let parts = text.split(separator: ":")
    guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
    else {
      throw SimError("a time of day is HH:MM, such as 23:30")
    }
    return (h, m)
  }

  /// The list of commands.
  public static let help = """
    App:      launch · quit · crash · active · inactive · background (bg) · foreground (fg)
    Screens:  open NAME · back · sheet NAME · dismiss · tab NAME · touch
    Time:     wait 90s|10m|1h30m · wait until 23:30 · next day [HH:MM] · skip N days
    Clock:    clock +2h|-1d · clock set 2026-05-01 10:00 · tz Asia/Tokyo
    Rules:    status · rules · explain RULE · reload
    Session:  undo · reset · record FILE · help · exit
    """
}

/// A mistake in a harness command: shown in the log, never fatal.
struct SimError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}
