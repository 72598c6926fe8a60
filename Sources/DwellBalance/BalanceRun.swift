internal import Dispatch
// Simulates a population through a rule pack on every core, each worker with its own engines.
package import Dwell
internal import DwellTesting
internal import Foundation

/// A balance run: `users` users drawn from `population`, `days` days each, through `pack`.
///
/// Users are independent. Workers (Swift tasks, one per thread) take every `threads`-th
/// user; each user gets its own engine in memory, manual clock and, for a pack with
/// scripts, its own Lua state. Each user's randomness comes from the seed and its index
/// alone, so the figures do not depend on `threads`.
package struct BalanceRun: Sendable {
  package var pack: BalancePack
  package var population: Population
  package var users: Int
  package var days: Int
  package var seed: UInt64
  package var threads: Int
  /// Timeouts and the like; rules, levels and listeners come from the pack.
  package var base: Engine.Configuration
  /// The most events a user's life may have (``UserLife/maximumEvents``): a longer one
  /// stops the run with an error naming its persona.
  package var maximumEvents = UserLife.maximumEvents
  /// The first day users install on (each on one of the seven days from it): the
  /// simulated calendar, for packs with dates (`from`/`to`, weekdays, `every = "month"`).
  package var start = UserLife.firstDay

  package init(
    pack: BalancePack, population: Population, users: Int, days: Int, seed: UInt64 = 1,
    threads: Int = ProcessInfo.processInfo.activeProcessorCount, base: Engine.Configuration = .init()
  ) {
    self.pack = pack
    self.population = population
    self.users = users
    self.days = days
    self.seed = seed
    self.threads = max(1, threads)
    self.base = base
  }

  /// Runs every user and returns the merged figures. `progress` gets the number of users
  /// done so far, from any worker.
  ///
  /// - Throws: `RuleError` if the pack cannot be instantiated.
  package func run(progress: (@Sendable (Int) -> Void)? = nil) async throws -> BalanceStats {
    let done = Locked(0)
    let workers = min(threads, max(users, 1))
    var total = emptyStats()
    try await withThrowingTaskGroup(of: BalanceStats.self) { group in
      for worker in 0..<workers {
        group.addTask {
          var stats = emptyStats()
          for index in stride(from: worker, to: users, by: workers) {
            try simulate(user: index, into: &stats)
            let count = done.withLock {
              $0 += 1
              return $0
            }
            progress?(count)
          }
          return stats
        }
      }
      for try await part in group { total.merge(part) }
    }
    total.normalize()
    return total
  }

  /// ``run(progress:)`` for callers that are not async (the command line, the benchmark):
  /// the workers run on Swift's concurrency pool while the calling thread waits.
  package func runBlocking(progress: (@Sendable (Int) -> Void)? = nil) throws -> BalanceStats {
    let result = Locked<Result<BalanceStats, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
      do {
        let stats = try await run(progress: progress)
        result.withLock { $0 = .success(stats) }
      } catch {
        result.withLock { $0 = .failure(error) }
      }
      done.signal()
    }
    done.wait()
    guard let outcome = result.withLock({ $0 }) else { throw RuleError("the simulation did not finish") }
    return try outcome.get()
  }

  private func emptyStats() -> BalanceStats {
    BalanceStats(
      days: days, rules: pack.rules.count, personas: population.personas.count, levels: pack.levels.count)
  }

  /// Simulates user `index` and adds it to `stats`.
  package func simulate(user index: Int, into stats: inout BalanceStats) throws {
    let (life, run) = try simulate(user: index)
    if let failure = run.failure { throw failure }
    let persona = life.personaIndex
    stats.addUser(persona: persona, activeMs: run.totalActiveMs)
    for unlock in run.unlocks {
      stats.unlocked(persona: persona, rule: unlock.rule, day: unlock.day, activeMs: unlock.activeMs)
    }
    for earning in run.earnings { stats.earned(persona: persona, rule: earning.rule, day: earning.day) }
    stats.userEarned(persona: persona, run.earnings, recurring: recurring)
    // A scripted check's progress is known only when a plugin reports it.
    for item in run.progress where item.reported || !pack.rules[item.rule].scripted {
      stats.progressed(
        persona: persona, rule: item.rule, checkpoint: item.checkpoint, fraction: item.fraction,
        reported: item.reported)
    }
    for (source, points) in run.awards { stats.awarded(source, points: points) }
    for (day, end) in run.dayEnds.enumerated() {
      stats.endOfDay(
        persona: persona, day: day, level: pack.level(points: end.points), points: end.points, active: end.used)
    }
    for (key, times) in run.notifications { stats.posted(key, times: times) }
    for message in run.errors { stats.scriptError(message) }
  }

  /// Runs user `index` through a fresh engine; the run keeps the engine for inspection.
  package func simulate(user index: Int) throws -> (UserLife, UserRun) {
    // The life counted first (its events cost nanoseconds each; through the engine,
    // microseconds): one over the bound is refused before any of it runs.
    var count = Count()
    var probe = UserLife(
      index: index, seed: seed, population: population, days: days, start: start, limit: maximumEvents)
    probe.run(into: &count)
    if probe.isCut { throw tooLong(probe) }
    var life = UserLife(
      index: index, seed: seed, population: population, days: days, start: start, limit: maximumEvents)
    let inbox = UserRun.Inbox(ruleIndex: ruleIndex)
    var configuration = try pack.configuration(base: base) { message in
      inbox.content.withLock { $0.errors.append(message) }
    }
    configuration.listeners = configuration.listeners.map { AwardRecorder($0, inbox: inbox) }
    var run = UserRun(install: life.install, configuration: configuration, inbox: inbox)
    run.progressDays = progressDays
    life.run(into: &run)
    if life.isCut { throw tooLong(life) }
    return (life, run)
  }

  /// The error for a life cut at ``UserLife/maximumEvents``.
  func tooLong(_ life: UserLife) -> RuleError {
    RuleError(
      "persona '\(life.persona.name)': user \(life.index)'s life has more than \(maximumEvents) events "
        + "(the most a replay takes) in \(life.days) days; "
        + "give the persona fewer or shorter sessions, or fewer touches or actions")
  }

  /// User `index`'s life as a trace (`TRACE.md`), to replay or inspect.
  package func trace(user index: Int) -> [TraceEvent] {
    var life = UserLife(
      index: index, seed: seed, population: population, days: days, start: start, limit: maximumEvents)
    var sink = TraceSink()
    // At most a replay's events: a longer life stops there.
    life.run(into: &sink)
    return sink.events
  }

  /// A life's events, not kept.
  private struct Count: LifeSink {
    var events = 0
    mutating func event(_ kind: TraceEvent.Kind, at t: Int64) { events += 1 }
    mutating func endOfDay(_ day: Int, at t: Int64) {}
  }

  /// The recurring rules' indexes.
  private var recurring: [Int] { pack.rules.indices.filter { pack.rules[$0].every != nil } }

  /// The checkpoint days (0-based) at whose end each user's progress is read, and their index.
  private var progressDays: [Int: Int] {
    Dictionary(
      uniqueKeysWithValues: BalanceStats.checkpoints(days: days).enumerated().map { ($0.element - 1, $0.offset) })
  }

  private var ruleIndex: [String: Int] {
    Dictionary(pack.rules.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
  }
}
