/// The fold a journal record was written during: the batch that fold is moving into SQLite,
/// kept in the record until the fold's transaction commits, and recovered only if it did not.
extension CheckpointBatch {
  /// A fold under way when a journal record was written (``CommitPipeline``): the batch it
  /// folds, in the journal's binary form, and the journal sequence its transaction records
  /// in the store (`folded:<owner>`) when it commits. Recovery folds `payload` only when the
  /// store's mark is below `marker`: the fold then never committed, and its batch is in no
  /// other record (the engine had taken it out of memory).
  struct InFlightFold: Sendable, Equatable {
    var marker: UInt64
    var payload: [UInt8]
  }

  /// Appends what version 4 adds to version 3: the fold under way, if any.
  func encodeInFlight(_ w: inout BinaryWriter) {
    guard let inFlight else { return }
    w.int64(Int64(bitPattern: inFlight.marker))
    w.int(inFlight.payload.count)
    w.raw(inFlight.payload)
  }

  /// Decodes what version 4 adds: the fold under way. `false` if malformed.
  mutating func decodeInFlight(_ r: inout BinaryReader) -> Bool {
    guard let marker = r.int64(), let count = r.int(limit: Journal.slotSize), let payload = r.raw(count)
    else { return false }
    inFlight = InFlightFold(marker: UInt64(bitPattern: marker), payload: Array(payload))
    return true
  }

  /// What recovery folds from a record whose fold was under way, the store's mark for the
  /// record's journal being `folded`: the record's own changes, preceded by the fold's
  /// batch when that fold never committed. `nil` when the fold's batch is malformed.
  func resolvingInFlight(folded: UInt64) -> CheckpointBatch? {
    guard let inFlight else { return self }
    var merged = self
    merged.inFlight = nil
    guard folded < inFlight.marker else { return merged }
    guard let earlier = CheckpointBatch(decoding: inFlight.payload[...]), earlier.inFlight == nil else { return nil }
    merged.days = earlier.days + days
    merged.visits = earlier.visits + visits
    merged.closedVisits = earlier.closedVisits + closedVisits
    merged.sessions = earlier.sessions + sessions  // both came from one engine's counts
    if let stop = earlier.lastStop, lastStop.map({ stop.isAfter($0) }) ?? true { merged.lastStop = stop }
    merged.unlocks = earlier.unlocks + unlocks
    merged.awards = earlier.awards + awards
    merged.listenerStates = earlier.listenerStates + listenerStates  // the later state wins
    merged.actions = earlier.actions + actions
    merged.sessionDays = earlier.sessionDays + sessionDays
    merged.earnings = earlier.earnings + earnings
    // The open visits are the record's own: the fold's are older snapshots of them.
    return merged
  }
}
