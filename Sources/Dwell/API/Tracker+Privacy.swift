public import Foundation

/// The user's rights over their data: everything stored, exported; everything, erased.
/// Both wait for the store to open and do their disk work on a background queue, never
/// on the caller's actor.
extension Tracker {
  /// Writes every day total, visit, unlock (with its title and points), award and plugin
  /// state to `handle`, as JSON or CSV, a page at a time: the export never holds the whole
  /// output (a heavy year of a million visits is 169 MB of JSON). Waits for the
  /// store, commits what is counted, then reads it in pages on the store's queue (the
  /// writer goes on between pages; what it folds after the export began is not in it).
  /// Disk I/O, off the caller's actor. The handle stays open. Damaged stores moved aside
  /// (``TrackerProblem/storeMovedAside(_:)``) are not read: they are not part of the export.
  ///
  /// Never a partial export passed off as complete: while the store that holds the user's
  /// history cannot be used (read-only, unopenable, written by a newer Dwell) and Dwell
  /// counts in memory, it throws instead of exporting only this run's data. A store that
  /// does not exist yet (a first launch) or a ``StoreLocation/inMemory`` configuration is
  /// no such case: the export is what was counted. When a write fails the export stops
  /// there and throws; what was written before stays in the file.
  ///
  /// ```swift
  /// FileManager.default.createFile(atPath: url.path, contents: nil)
  /// let file = try FileHandle(forWritingTo: url)
  /// defer { try? file.close() }
  /// try await tracker.export(.csv, to: file)
  /// ```
  /// - Complexity: memory bounded by a page (10,000 visits or awards), the day totals, the
  ///   actions' per-day counts and the earnings.
  /// - Throws: the store's error; the handle's error when a write fails (a full disk, a
  ///   closed handle); ``TrackerProblem/storeUnavailable(_:)`` when the store holding the
  ///   user's history cannot be used (its message names the file and why), or when no
  ///   database could be opened at all.
  public func export(_ format: ExportFormat, to handle: FileHandle) async throws {
    try await withExporter { exporter in
      let sink = ExportSink(handle)
      try exporter.write(format, to: sink)
      try sink.flush()
    }
  }

  /// The same export as text, held whole (for tests and tools; apps write to a file with
  /// ``export(_:to:)``).
  package func export(_ format: ExportFormat) async throws -> String {
    try await withExporter { exporter in
      let sink = ExportSink()
      try exporter.write(format, to: sink)
      return sink.text
    }
  }

  /// Waits for the store, commits, and runs `body` off the caller's actor with an exporter
  /// of the store (refused while the store holding the user's history cannot be used).
  private func withExporter<T: Sendable>(_ body: @escaping @Sendable (Exporter) throws -> T) async throws -> T {
    await ready()
    return try await Self.offActor { [self] in
      guard let engine else { throw TrackerProblem.storeUnavailable("no store could be opened") }
      if let unused = unusedStoreWithData() {
        throw TrackerProblem.storeUnavailable(
          "the store \(unused.path) holds the user's history but \(unused.reason); "
            + "an export of only what was counted since would be incomplete, so none was made")
      }
      try engine.commit()
      let titles = Dictionary(rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      return try body(try Exporter(store: engine.store, rules: titles))
    }
  }

  /// Erases all usage data and starts counting afresh: totals, visits, unlocks, points,
  /// plugin state in the store and in memory, what plugins published, and the damaged
  /// stores Dwell moved aside beside the store (``TrackerProblem/storeMovedAside(_:)``,
  /// with their write-ahead logs). The rules set (``setRules(_:pack:)``) stay in force;
  /// screens visible now count again from their next appearance. Waits for the store;
  /// disk I/O (it vacuums the file), off the caller's actor.
  ///
  /// While the store that holds the user's history cannot be used (read-only, unopenable,
  /// written by a newer Dwell) and Dwell counts in memory, it erases what it can (memory,
  /// moved-aside stores) and then throws: the stored history is still on disk. A store
  /// that does not exist yet or a ``StoreLocation/inMemory`` configuration is no such case.
  ///
  /// - Throws: the store's error; ``TrackerProblem/storeUnavailable(_:)`` when the store
  ///   holding the user's history cannot be used and still holds it (its message names the
  ///   file and why), or when no database could be opened at all.
  public func erase() async throws {
    // Another erase, or a store retry, may be replacing the engine: this one erases after
    // it, so that what was counted meanwhile goes too. While the other works the store is
    // mostly opening again and `ready()` waits; otherwise the loop looks again every
    // millisecond.
    while true {
      await ready()
      if try await Self.offActor({ [self] in try replacingEngine { try eraseNow() } }) != nil { return }
      try? await Task.sleep(for: .milliseconds(1))
    }
  }

  /// The store Dwell could not use, if a file of it is on disk (its database, write-ahead
  /// log or rollback journal): the user's history is there, out of reach.
  func unusedStoreWithData() -> (path: String, reason: String)? {
    guard let unused = unusedStore.withLock({ $0 }) else { return nil }
    let held = ["", "-wal", "-journal"].contains { suffix in
      var isFolder: ObjCBool = false
      return FileManager.default.fileExists(atPath: unused.path + suffix, isDirectory: &isFolder) && !isFolder.boolValue
    }
    return held ? unused : nil
  }

  private func eraseNow() throws {
    guard let old = engine else { throw TrackerProblem.storeUnavailable("no store could be opened") }
    // Events recorded while erasing wait, and go to the fresh engine. Calls waiting for the
    // store meanwhile go on when it is in place, or when erasing fails for good.
    phase.withLock { $0 = .opening(OpeningEvents()) }
    defer { resumeReadyWaiters() }
    let wasActive = old.isActive
    old.abandon()
    var failure: (any Error)?
    do {
      try old.store.erase()
    } catch {
      failure = error
    }
    // Plugins forget what they kept in memory: the pack is loaded afresh.
    if let pack = rulePack {
      do {
        try setPack(try pack.reloaded())
      } catch {
        report(.rulesRefused(error))
      }
    }
    let fresh: Engine
    do {
      fresh = try engine(on: old.store)
    } catch {
      fresh = try engine(on: Store(path: ":memory:"))
      report(.storeUnavailable("after erasing: \(error)"))
    }
    install(fresh)
    if wasActive { fresh.record(.active) }
    if let path = storeFile.withLock({ $0 }) {
      do {
        try Store.removeMovedAside(besides: path)
      } catch {
        failure = failure ?? error
      }
    }
    if let failure { throw failure }
    if let unused = unusedStoreWithData() {
      throw TrackerProblem.storeUnavailable(
        "erased what was in memory, but the store \(unused.path) still holds the user's history: \(unused.reason)")
    }
  }

  /// Runs blocking work on a background queue and waits for it without blocking the caller.
  static func offActor<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global(qos: .userInitiated).async { continuation.resume(with: Result { try work() }) }
    }
  }
}
