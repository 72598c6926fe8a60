internal import Dwell
internal import DwellLua
internal import DwellTesting
internal import Foundation

/// The simulated app: launching, lifecycle moves and screens, each recorded both into the
/// engine and into the trace that `record` writes.
extension Simulator {
  enum Move { case active, inactive, background, foreground }

  func launch() throws(CommandError) {
    guard engine == nil else { throw CommandError("the app is already running") }
    let engine: Engine
    do {
      engine = try Engine(
        store: Store(path: storePath), configuration: configuration, clock: clock, wallClock: wall, scheduler: clock)
    } catch {
      throw CommandError("the app does not start: \(error)")
    }
    engine.onUnlock { [weak self] record in self?.announce(record) }
    engine.onNotification { [weak self] note in
      guard let self else { return }
      let text = note.title + (note.body.map { ": \($0)" } ?? "")
      self.notifications.append(text)
      self.report("✉ \(text) (\(note.source))", .notification)
    }
    engine.onError { [weak self] error in self?.report("Store error: \(error)", .error) }
    attach(source?.pack)
    self.engine = engine
    appState = .inactive
    stack = []
    trace.append(
      TraceEvent(
        line: trace.count + 1, t: clock.now(),
        kind: .launch(wall: trace.isEmpty ? wall.now() : nil, timeZone: trace.isEmpty ? wall.timeZone : nil)))
  }

  func launchCommand(_ args: [String]) throws(CommandError) -> String {
    try noArguments(args, "launch")
    try launch()
    note("App launched, inactive: type 'active' (or 'fg') to use it", .event)
    return ""
  }

  func move(_ move: Move, _ args: [String]) throws(CommandError) -> String {
    try noArguments(args, "\(move)")
    try requireRunning()
    switch move {
    case .active:
      record(.active)
      appState = .active
      note("App active", .event)
    case .inactive:
      record(.inactive)
      appState = .inactive
      note("App inactive (Control Centre, a call)", .event)
    case .background:
      if appState == .active { record(.inactive) }
      record(.background)
      appState = .background
      note("App in the background", .event)
    case .foreground:
      record(.foreground)
      record(.active)
      appState = .active
      note("App back in the foreground, active", .event)
    }
    return ""
  }

  func quit(_ args: [String]) throws(CommandError) -> String {
    try noArguments(args, "quit")
    try requireRunning()
    if appState == .active { record(.inactive) }
    if appState != .background { record(.background) }
    engine?.terminate()
    endProcess(.terminate, "App quit")
    return ""
  }

  func crash(_ args: [String]) throws(CommandError) -> String {
    try noArguments(args, "crash")
    try requireRunning()
    engine?.abandon()
    endProcess(.crash, "App crashed (kill -9): what was not checkpointed is lost")
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

  // MARK: Screens

  func open(_ args: [String]) throws(CommandError) -> String {
    try requireRunning()
    let name = try screenName(args, "open")
    let id = newID()
    let covered = visible
    record(.appear(screen: name, id: ScreenInstance(id)))
    for entry in covered { record(.disappear(id: ScreenInstance(entry.id))) }
    stack.append(Entry(name: name, id: id, isSheet: false))
    note("Opened \(name)", .event)
    return ""
  }

  func sheet(_ args: [String]) throws(CommandError) -> String {
    try requireRunning()
    let name = try screenName(args, "sheet")
    let id = newID()
    record(.appear(screen: name, id: ScreenInstance(id)))
    stack.append(Entry(name: name, id: id, isSheet: true))
    note("Presented \(name) as a sheet (the screen below stays visible)", .event)
    return ""
  }

  func back(_ args: [String]) throws(CommandError) -> String {
    try noArguments(args, "back")
    try requireRunning()
    guard let top = stack.popLast() else { throw CommandError("no screen to close") }
    if !top.isSheet {
      for entry in visible { record(.appear(screen: entry.name, id: ScreenInstance(entry.id))) }
    }
    record(.disappear(id: ScreenInstance(top.id)))
    note("Closed \(top.name)", .event)
    return ""
  }

  func tab(_ args: [String]) throws(CommandError) -> String {
    try requireRunning()
    let name = try screenName(args, "tab")
    let id = newID()
    record(.appear(screen: name, id: ScreenInstance(id)))
    for entry in visible { record(.disappear(id: ScreenInstance(entry.id))) }
    stack = [Entry(name: name, id: id, isSheet: false)]
    note("Switched to the \(name) tab", .event)
    return ""
  }

  func touch(_ args: [String]) throws(CommandError) -> String {
    try noArguments(args, "touch")
    try requireRunning()
    record(.interact)
    note("Touched", .event)
    return ""
  }

  /// Names of the visible screens, bottom to top.
  var visible: [Entry] {
    guard let top = stack.indices.last else { return [] }
    var first = top
    while first > 0, stack[first].isSheet { first -= 1 }
    return Array(stack[first...])
  }

  func record(_ event: LifecycleEvent) {
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
    case .pause, .resume: return  // the simulator's screens are never paused; traces have no such event
    case .clockChanged(let wall, let zone): kind = .clock(wall: wall, timeZone: zone)
    case .action(let name, let count): kind = .action(name: name, count: count)
    }
    trace.append(TraceEvent(line: trace.count + 1, t: clock.now(), kind: kind))
  }

  private func newID() -> String {
    nextID += 1
    return "s\(nextID)"
  }

  private func screenName(_ args: [String], _ verb: String) throws(CommandError) -> String {
    let name = args.joined(separator: " ")
    guard !name.isEmpty else {
      throw CommandError("\(verb) takes a screen name: \(verb) Lessons, \(verb) \"Sleep Well\"")
    }
    // Cleaned as the engine records it, so the stack, status and recorded trace agree.
    let cleaned = ScreenName.clean(name)
    // A name the rules spell only in another case counts for none of them: said, not run.
    let named = Set((source?.rules ?? []).flatMap(\.condition.screens))
    if !named.contains(cleaned), let meant = named.sorted().first(where: { $0.lowercased() == cleaned.lowercased() }) {
      throw CommandError(
        "the rules name the screen '\(meant)', not '\(cleaned)' (screen names are case-sensitive); "
          + "write \(verb) \(meant.contains(" ") ? "\"\(meant)\"" : meant)")
    }
    return cleaned
  }
}
