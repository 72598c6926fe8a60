internal import Dwell
internal import DwellLua
internal import DwellTesting
internal import Foundation

/// The invariants every rule pack keeps, checked on a simulation so far (by `dwell test
/// --fuzz` after each trace, and by a scenario's `expect invariants`): no rule unlocked
/// twice, none before its condition holds, a recurring rule earned at most once a period,
/// and `dwell replay` of the recorded trace giving the same unlocks and earnings.
enum Invariants {
  /// The first breach in `sim`, in words; `nil` when every invariant holds. The caller
  /// holds `sim.lock`.
  static func breach(in sim: Simulator) -> String? {
    let announced = sim.logLock.withLock { sim.announcements }
    if let twice = announcedTwice(announced, sim) { return twice }
    let report = sim.report()
    let events = closedTrace(of: sim)
    let rules = sim.source?.rules ?? []
    var unlocks = report.map { Array($0.unlocks.values) } ?? []
    for record in announced where record.period == nil && report?.unlocks[record.rule] == nil {
      unlocks.append(record)
    }
    if let early = unlockedEarly(unlocks, rules: rules, events: events, sim: sim) { return early }
    return replayDiffers(report, events: events, sim: sim)
  }

  /// A rule announced twice, or a recurring rule announced twice for one period.
  private static func announcedTwice(_ announced: [UnlockRecord], _ sim: Simulator) -> String? {
    var seen: Set<String> = []
    for record in announced {
      let key = record.rule + "\u{0}" + (record.period ?? "")
      guard seen.insert(key).inserted else {
        let when = sim.local(record.wall)
        if let period = record.period {
          return "recurring rule '\(record.rule)' earned twice for \(period) (again at \(when.date) \(when.time))"
        }
        return "rule '\(record.rule)' unlocked twice (again at \(when.date) \(when.time))"
      }
    }
    return nil
  }

  /// The trace as `record` writes it: what happened, then the app quitting now.
  static func closedTrace(of sim: Simulator) -> [TraceEvent] {
    var events = sim.trace
    guard sim.engine != nil else { return events }
    var closing: [TraceEvent.Kind] = sim.appState == .active ? [.inactive] : []
    if sim.appState != .background { closing.append(.background) }
    closing.append(.terminate)
    for kind in closing { events.append(TraceEvent(line: events.count + 1, t: sim.clock.now(), kind: kind)) }
    return events
  }

  /// Whether a condition is made of figures only: no scripted check, no `unlocked` gate
  /// (what those hold depends on scripts and other rules, not on the figures).
  static func isDeclarative(_ condition: Condition) -> Bool {
    switch condition {
    case .check, .unlocked: return false
    case .all(let parts), .any(let parts): return parts.allSatisfy(isDeclarative)
    case .within(_, let inner): return isDeclarative(inner)
    default: return true
    }
  }

  /// An ordinary declarative rule whose condition did not hold at the instant it unlocked
  /// (a plugin's `p.unlock` of it, say): the trace is replayed with a copy of each such
  /// rule, alone, and the copy's progress read at each unlock instant.
  private static func unlockedEarly(
    _ unlocks: [UnlockRecord], rules: [Rule], events: [TraceEvent], sim: Simulator
  ) -> String? {
    let checked = rules.filter { $0.every == nil && isDeclarative($0.condition) }
    var probes: [String: Rule] = [:]
    for (index, rule) in checked.enumerated() where probes[rule.id] == nil {
      probes[rule.id] = Rule("dwell-fuzz-probe-\(index)", when: rule.condition, from: rule.from, to: rule.to)
    }
    let instants = unlocks.filter { probes[$0.rule] != nil }.sorted { $0.mono.nanoseconds < $1.mono.nanoseconds }
    guard !instants.isEmpty else { return nil }
    var base = sim.options.configuration
    base.rules = []
    let configuration: Engine.Configuration
    do {
      configuration = try RuleSet(rules: probes.values.sorted { $0.id < $1.id }).validated(base: base)
    } catch {
      return nil  // the rules themselves validated; copies that do not are not checked
    }
    let store = Fuzzer.scratchStore()
    defer { Store.removeFiles(at: store) }
    let driver = TraceDriver(storePath: store, configuration: configuration)
    let clock = driver.clock
    // Each unlock is read at its instant: before and after every event there, and as the
    // replay passes it; it breaks the invariant when no read there found its condition held.
    var next = 0
    var held = Array(repeating: false, count: instants.count)
    var seen = Array(repeating: "", count: instants.count)
    func read(at t: Int64) {
      var index = next
      while index < instants.count, instants[index].mono.nanoseconds == t {
        if let engine = driver.engine, let probe = probes[instants[index].rule], !held[index] {
          let progress = engine.progress().first { $0.rule.id == probe.id }?.progress
          if progress?.isUnlocked ?? true { held[index] = true } else { seen[index] = progress?.summary ?? "" }
        }
        index += 1
      }
    }
    func pass(before limit: Int64?) -> String? {
      while next < instants.count, limit.map({ instants[next].mono.nanoseconds < $0 }) ?? true {
        let record = instants[next]
        if record.mono.nanoseconds >= clock.now().nanoseconds {
          clock.advance(to: record.mono)
          read(at: record.mono.nanoseconds)
        }
        if !held[next], !seen[next].isEmpty, let probe = probes[record.rule] {
          let when = sim.local(record.wall)
          return "rule '\(record.rule)' unlocked at \(when.date) \(when.time) before its condition held "
            + "(\(seen[next]); needs \(probe.condition))"
        }
        next += 1
      }
      return nil
    }
    do {
      for event in events {
        if let early = pass(before: event.t.nanoseconds) { return early }
        clock.advance(to: event.t)
        read(at: event.t.nanoseconds)
        try driver.apply(event)
        read(at: event.t.nanoseconds)
      }
      if let early = pass(before: nil) { return early }
    } catch {
      return "the trace does not replay with copies of the rules: \(error)"
    }
    driver.engine?.terminate()
    return nil
  }

  /// Unlocks and earnings of `dwell replay` (the ``Replayer`` with the pack loaded afresh)
  /// that differ from the simulation's.
  private static func replayDiffers(_ report: UsageReport?, events: [TraceEvent], sim: Simulator) -> String? {
    guard let path = sim.options.rulesPath else { return nil }
    let store = Fuzzer.scratchStore()
    defer { Store.removeFiles(at: store) }
    let replayed: UsageReport
    do {
      let source = try RuleSource.load(path)
      let configuration = try RuleSet(rules: source.pack == nil ? source.rules : [], pack: source.pack)
        .validated(base: sim.options.configuration)
      replayed = try Replayer(storePath: store, configuration: configuration).run(events)
    } catch {
      return "dwell replay of the recorded trace fails: \(error)"
    }
    func described(_ unlocks: [UnlockRecord]) -> [String] {
      unlocks.map { record in
        let when = sim.local(record.wall)
        return "\(record.rule)\(record.period.map { " (\($0))" } ?? "") at \(when.date) \(when.time)"
      }
    }
    func key(_ record: UnlockRecord) -> String {
      "\(record.rule)\u{0}\(record.period ?? "")\u{0}\(record.mono.nanoseconds)"
    }
    let simulated = (report.map { Array($0.unlocks.values) } ?? []) + (report?.earnings ?? [])
    let again = Array(replayed.unlocks.values) + replayed.earnings
    let simulatedKeys = Set(simulated.map(key))
    let replayedKeys = Set(again.map(key))
    let onlySimulated = simulated.filter { !replayedKeys.contains(key($0)) }
    let onlyReplayed = again.filter { !simulatedKeys.contains(key($0)) }
    guard !onlySimulated.isEmpty || !onlyReplayed.isEmpty else { return nil }
    var parts: [String] = []
    if !onlySimulated.isEmpty {
      parts.append("only the simulation: " + described(onlySimulated).sorted().joined(separator: ", "))
    }
    if !onlyReplayed.isEmpty {
      parts.append("only the replay: " + described(onlyReplayed).sorted().joined(separator: ", "))
    }
    return "dwell replay of the recorded trace gives other unlocks (" + parts.joined(separator: "; ") + ")"
  }

}
