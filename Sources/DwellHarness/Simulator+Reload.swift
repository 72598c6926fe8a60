internal import Dwell
internal import DwellLua
internal import Foundation

/// The rules in the simulation: the engine's configuration from them, hot reload (a
/// watcher in the background, or a check before each command), and what the rules do
/// written to the log (unlocks, plugin awards, script errors).
extension Simulator {
  /// The configuration a launch makes the engine with: the rules in force.
  var configuration: Engine.Configuration { inForce.launchConfiguration(base: options.configuration) }

  /// Makes `source` the rules in force, as a tracker would take them: a JSON file's rules
  /// as the app's, a Lua pack as the pack, its awards written to the log.
  ///
  /// - Throws: ``RuleError`` when they do not validate; the rules in force stay.
  func use(_ source: RuleSource?) throws(RuleError) {
    let pack = source?.pack.map { pack in
      AwardLog(pack: pack) { [weak self] points, reason, plugin in
        let sign = points < 0 ? "" : "+"
        self?.report("★ \(sign)\(points) points from \(plugin)\(reason.isEmpty ? "" : ": \(reason)")", .unlock)
      }
    }
    try inForce.change { set in
      set.rules = pack == nil ? source?.rules ?? [] : []
      set.pack = pack
    }
    self.source = source
  }

  /// Watches the rules in the background (interactive mode, and `--watch`): a change is
  /// applied at once and `onChange` is called. A save since the rules were loaded (the
  /// poller's baseline, taken before that load) is applied first, so none is missed.
  public func watchRules() {
    guard let path = options.rulesPath else { return }
    let watcher = RuleWatcher(path: path) { [weak self] result in
      guard let self else { return }
      self.lock.withLock { if !self.closed { self.applyReload(result) } }
      self.onChange?()
    }
    let caughtUp = lock.withLock {
      self.watcher = watcher
      return !closed && poller?.checkNow() == true
    }
    watcher.start()
    if caughtUp { onChange?() }
  }

  /// Checks the rules for changes now (before each command when not watching), or reloads
  /// them whatever happened (`reload`). Runs under the lock.
  func reloadIfChanged(force: Bool) {
    guard let path = options.rulesPath else { return }
    let before = reloads
    poller?.checkNow()
    if force && reloads == before {
      do {
        applyReload(.success(try RuleSource.load(path, limits: .tools)))
      } catch {
        applyReload(.failure(error))
      }
    }
  }

  func applyReload(_ result: Result<RuleSource, RuleError>) {
    reloads += 1
    switch result {
    case .success(let fresh):
      attach(fresh.pack)
      // What the new rules cause is logged after the line that says they loaded.
      logConsequences {
        do {
          let old = source
          rememberVersions(of: old?.rules ?? [], unlocked: report()?.unlocks.keys.sorted() ?? [])
          try use(fresh)
          if let engine { inForce.apply(to: engine) }
          note("Rules reloaded: \(fresh.rules.count) rule\(fresh.rules.count == 1 ? "" : "s")", .info)
          notePluginChanges(from: old?.pack, to: fresh.pack)
        } catch {
          note("Rules not reloaded: \(error)", .error)
        }
      }
    case .failure(let error):
      note("Rules not reloaded, the previous ones keep running: \(withinPack(error))", .error)
    }
  }

  func attach(_ pack: LuaRulePack?) {
    guard let pack, ObjectIdentifier(pack) != attached else { return }
    attached = ObjectIdentifier(pack)
    pack.onDiagnostic { [weak self] error in
      guard let self else { return }
      self.report("Script error: \(self.withinPack(error))", .error)
    }
    pack.onPrint { [weak self] line in self?.report("print: \(line)", .info) }
  }

  /// An error's text with the rules' folder left out of file names (`unlocks.lua:3:`), so
  /// the line and the reason fit a narrow terminal.
  func withinPack(_ error: any Error) -> String {
    let text = "\(error)"
    guard var folder = options.rulesPath else { return text }
    if folder.hasSuffix(".lua") || folder.hasSuffix(".json") { folder = (folder as NSString).deletingLastPathComponent }
    guard !folder.isEmpty else { return text }
    return text.replacingOccurrences(of: folder.hasSuffix("/") ? folder : folder + "/", with: "")
  }

  func announce(_ record: UnlockRecord) {
    logLock.withLock { announcements.append(record) }
    let rule = source?.rules.first { $0.id == record.rule }
    rememberVersions(of: source?.rules ?? [], unlocked: [record.rule], replacing: true)
    let title = rule?.title.map { " \"\($0)\"" } ?? ""
    let points = record.points > 0 ? " (+\(record.points) points)" : ""
    if let period = record.period {
      report("★ Earned \(record.rule)\(title) for \(period)\(points)", .unlock)
      return
    }
    let kind = rule?.achievement != nil ? "Achievement" : "Unlocked"
    report("★ \(kind) \(record.rule)\(title)\(points)", .unlock)
  }
}

/// A pack as the simulator puts it in force, telling the log of every award its plugins
/// make. Its rules, levels and plugins' states are the pack's.
struct AwardLog: ScriptedRulePack, StatefulListener {
  let pack: LuaRulePack
  let onAward: @Sendable (Int, String, String) -> Void

  var rules: [Rule] { pack.rules }

  var levels: [Level] { pack.levels }

  func setHostValue(_ name: String, _ value: HostValue) { pack.setHostValue(name, value) }

  func loadedAfresh() throws(RuleError) -> any RulePack {
    AwardLog(pack: try LuaRulePack(scripts: pack.scripts, limits: pack.limits, name: pack.name), onAward: onAward)
  }

  var wantsTicks: Bool { pack.wantsTicks }

  func restore(states: [String: String]) { pack.restore(states: states) }

  func takeStates() -> [UsageAction] { pack.takeStates() }

  var hasUnsavedStates: Bool { pack.hasUnsavedStates }

  func receive(_ event: UsageEvent, usage: UsageFigures) -> [UsageAction] {
    let actions = pack.receive(event, usage: usage)
    for case .award(let points, let reason, let source) in actions { onAward(points, reason, source) }
    return actions
  }
}
