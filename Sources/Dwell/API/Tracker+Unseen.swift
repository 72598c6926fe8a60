internal import Foundation

/// Unlocks an app can show after a relaunch: which ones the user has not been shown yet,
/// with their titles and points, and marking them seen (kept in the store).
extension Tracker {
  /// Unlocks the user has not been shown yet (``markSeen(_:)``), oldest first. Survives a
  /// relaunch. The first call after the store opens reads which were seen from it; later
  /// calls answer from memory.
  ///
  /// Each record's `points` are the points the user was awarded when it unlocked (kept in
  /// the store, and counted in ``UsageQueries/points``), even if the rule now gives
  /// other points; its `title` is the title of the rule now in force (titles are not
  /// stored: `nil` when the rule has none or is no longer in force), like ``UsageQueries/unlocks``.
  ///
  /// ```swift
  /// for unlock in tracker.unseenUnlocks() { showBadge(unlock.title ?? unlock.rule) }
  /// try await tracker.markSeen(tracker.unseenUnlocks().map(\.rule))
  /// ```
  public func unseenUnlocks() -> [UnlockRecord] {
    guard let engine else { return [] }
    let seen = seenRules(engine)
    return unlocks.values.filter { !seen.contains($0.rule) }.sorted {
      ($0.wall.nanosecondsSince1970, $0.rule) < ($1.wall.nanosecondsSince1970, $1.rule)
    }
  }

  /// Marks the unlocks of these rules as seen, in the store (waits for it to open), off
  /// the caller's actor.
  /// - Throws: the store's error; ``TrackerProblem/storeUnavailable(_:)`` when there is no store.
  public func markSeen(_ rules: [String]) async throws {
    await ready()
    try await Self.offActor { [self] in
      guard let engine else { throw TrackerProblem.storeUnavailable("no store could be opened") }
      _ = seenRules(engine)
      try engine.store.markSeen(rules)
      seen.withLock { cache in
        if cache?.engine == ObjectIdentifier(engine) { cache?.rules.formUnion(rules) }
      }
    }
  }

  /// The seen rules of `engine`'s store, read once per engine (a new one after `erase()`).
  private func seenRules(_ engine: Engine) -> Set<String> {
    let id = ObjectIdentifier(engine)
    if let cached = seen.withLock({ $0?.engine == id ? $0?.rules : nil }) { return cached }
    let rules = (try? engine.store.seenUnlocks()) ?? []
    seen.withLock { if $0?.engine != id { $0 = (id, rules) } }
    return seen.withLock { $0?.rules ?? rules }
  }
}
