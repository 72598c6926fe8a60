#if canImport(Darwin)
  internal import Darwin
#elseif canImport(Glibc)
  internal import Glibc
#endif

/// Crash recovery: the journals beside the store, what they hold that the rollups do not,
/// and folding those of processes that died.
extension Store {
  struct JournalContent {
    var owner: String
    var path: String
    var sequence: UInt64
    var batch: CheckpointBatch
    /// Whether `batch`'s changes (not its open visits) are already in the rollups.
    var alreadyFolded: Bool
  }

  /// Journals beside the store whose content is not (entirely) in the rollups yet.
  func unfoldedJournals(_ values: [String: (Int64, String)]) throws -> [JournalContent] {
    var result: [JournalContent] = []
    for (owner, path) in Journal.list(storePath: self.path) {
      let folded = values["folded:" + owner].map { UInt64(bitPattern: $0.0) } ?? 0
      // A record written while a fold was under way carries that fold's batch, folded here
      // only if the fold never committed (``CheckpointBatch/resolvingInFlight(folded:)``).
      guard folded != UInt64(bitPattern: Int64.max), let record = Journal.read(path: path),
        var batch = CheckpointBatch(decoding: record.payload)?.resolvingInFlight(folded: folded)
      else { continue }
      let alreadyFolded = record.sequence <= folded
      if alreadyFolded {
        let open = batch.openVisits
        batch = CheckpointBatch(boot: batch.boot)
        batch.openVisits = open
      }
      result.append(
        JournalContent(
          owner: owner, path: path, sequence: record.sequence, batch: batch, alreadyFolded: alreadyFolded))
    }
    return result
  }

  /// Adds what unfolded journals hold to `usage` (`screens` finds a screen's index by name).
  func addUnfoldedJournals(
    _ values: [String: (Int64, String)], to usage: inout RestoredUsage, screens: inout [String: Int]
  ) throws {
    for journal in try unfoldedJournals(values) {
      let batch = journal.batch
      func index(_ name: String) -> Int {
        if let i = screens[name] { return i }
        screens[name] = usage.screens.count
        usage.screens.append((name, Tally(), 0))
        return usage.screens.count - 1
      }
      for entry in batch.days {
        if let screen = entry.screen {
          usage.screens[index(screen)].tally.add(entry.nanos, on: entry.day)
        } else {
          usage.app.add(entry.nanos, on: entry.day)
        }
      }
      for visit in batch.visits {
        let screen = index(visit.screen)
        usage.screens[screen].visits += visit.count
        if let day = visit.day { usage.screens[screen].tally.addVisits(visit.count, on: day) }
      }
      usage.sessions += batch.sessions
      if let stop = batch.lastStop, usage.lastStop.map({ stop.isAfter($0) }) ?? true {
        usage.lastStop = stop
      }
      let known = Set(usage.unlocks.map(\.rule))
      usage.unlocks += batch.unlocks.filter { !known.contains($0.rule) }
      for award in batch.awards { usage.points.addSaturating(award.points) }
      for action in batch.actions {
        usage.actions[action.name, default: ActionTally()].add(action.count, on: action.day)
      }
      for session in batch.sessionDays { usage.sessionDays[session.day, default: 0].addSaturating(session.count) }
      let earned = Set(usage.earnings.map(\.announcementKey))
      usage.earnings += batch.earnings.filter { !earned.contains($0.announcementKey) }
      for state in batch.listenerStates { usage.listenerStates[state.source] = state.data }
    }
  }

  /// Folds the journals of processes that are no longer running, then deletes them.
  /// Returns how many were recovered.
  @discardableResult
  func recoverJournals(currentBoot: String) throws -> Int {
    try write { database in
      let values = try stateValues()
      var recovered = 0
      for journal in try unfoldedJournals(values)
      where !Journal.isAlive(owner: journal.owner, boot: journal.batch.boot, currentBoot: currentBoot) {
        var batch = journal.batch
        // Visits still open when the process died end at its last checkpoint.
        batch.closedVisits += batch.openVisits
        batch.openVisits = []
        try writeTransaction {
          try apply(batch)
          try setState("folded:" + journal.owner, Int64.max)
        }
        unlink(journal.path)
        recovered += 1
      }
      // Journals of dead processes with no intact record (killed before their first
      // checkpoint, or torn in both slots) hold nothing to fold: remove them.
      for (owner, journalPath) in Journal.list(storePath: path)
      where Journal.read(path: journalPath) == nil
        && !Journal.isAlive(owner: owner, boot: nil, currentBoot: currentBoot)
      {
        unlink(journalPath)
      }
      // Forget markers of journals that are gone.
      let present = Set(Journal.list(storePath: path).map(\.owner))
      for key in values.keys where key.hasPrefix("folded:") && !present.contains(String(key.dropFirst(7))) {
        try database.statement("DELETE FROM state WHERE key = ?").bind(key).run()
      }
      for (owner, journalPath) in Journal.list(storePath: path)
      where values["folded:" + owner]?.0 == Int64.max {
        unlink(journalPath)
      }
      return recovered
    }
  }
}
