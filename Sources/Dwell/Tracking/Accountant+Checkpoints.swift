// What the accountant hands to the store: the batch of changes since the last fold, putting
// back a batch whose fold failed, imported totals, and the ledger of listeners' events,
// points, states and unlocks.

extension Accountant {
  // MARK: Checkpoints

  func record(_ visit: VisitState, ended: WallInstant) -> VisitRecord {
    VisitRecord(
      screen: screens[Int(visit.screen)].name, started: visit.started, ended: ended,
      activeNanos: visit.activeNanos)
  }

  /// Everything since the last fold, by screen name, with the open visits as of the
  /// cursor. `take` clears the pending changes (a fold); otherwise they stay (a journal write).
  mutating func batch(take: Bool) -> CheckpointBatch {
    let stamp = wall(at: cursor)
    // While active, the latest checkpoint stands in for the stop a crash would hide.
    if isActive { pending.lastStop = StopMark(mono: cursor, boot: boot, wall: stamp) }
    var batch = CheckpointBatch(boot: boot)
    batch.days = pending.days.map { key, nanos in
      CheckpointBatch.Entry(
        day: key.day, screen: key.screen < 0 ? nil : screens[Int(key.screen)].name, nanos: nanos)
    }
    batch.visits = pending.visits.map {
      .init(screen: screens[Int($0.key.screen)].name, day: $0.key.day, count: $0.value)
    }
    batch.closedVisits = pending.closedVisits
    batch.openVisits = visits.map { record($0, ended: stamp) }
    batch.sessions = pending.sessions
    batch.lastStop = pending.lastStop
    batch.unlocks = pending.unlocks
    batch.awards = pending.awards
    batch.listenerStates = pending.listenerStates.map { .init(source: $0.key, data: $0.value) }
    batch.actions = pending.actions.map { .init(name: $0.key.name, day: $0.key.day, count: $0.value) }
    batch.sessionDays = pending.sessionDays.map { .init(day: $0.key, count: $0.value) }
    batch.earnings = pending.earnings
    if take { pending = PendingChanges() }
    return batch
  }

  /// Drops the changes waiting for a store (an engine in memory has none) and returns the
  /// unlocks among them.
  mutating func dropPending() -> [UnlockRecord] {
    defer { pending = PendingChanges() }
    return pending.unlocks + pending.earnings
  }

  /// Puts back changes whose fold failed, so they go with the next one.
  mutating func restore(_ batch: CheckpointBatch) {
    for entry in batch.days {
      pending.add(entry.nanos, day: entry.day, screen: entry.screen.map { intern($0) } ?? -1)
    }
    for visit in batch.visits {
      pending.visits[VisitKey(day: visit.day, screen: intern(visit.screen)), default: 0] += visit.count
    }
    pending.closedVisits = batch.closedVisits + pending.closedVisits
    let excess = pending.closedVisits.count - Self.maximumPendingVisitRecords
    if excess > 0 {
      pending.closedVisits.removeLast(excess)
      droppedVisitRecords += excess
    }
    pending.sessions += batch.sessions
    if pending.lastStop == nil { pending.lastStop = batch.lastStop }
    pending.unlocks = batch.unlocks + pending.unlocks
    pending.awards = batch.awards + pending.awards
    for state in batch.listenerStates where pending.listenerStates[state.source] == nil {
      pending.listenerStates[state.source] = state.data
    }
    for action in batch.actions {
      pending.actions[ActionKey(day: action.day, name: action.name), default: 0].addSaturating(action.count)
    }
    for session in batch.sessionDays { pending.sessionDays[session.day, default: 0].addSaturating(session.count) }
    pending.earnings = batch.earnings + pending.earnings
  }

  /// Closed visits waiting to be folded.
  var pendingVisitCount: Int { pending.closedVisits.count }

  /// The most closed visits kept row by row while they wait to be folded (about 3 MB).
  /// Only a writer that is stalled (a full or failing disk) or a flood far beyond any app
  /// (hundreds of thousands of screen changes a second) reaches it; past it, visits still
  /// count in every total and visit count, but their rows in `visits` are not kept.
  static let maximumPendingVisitRecords = 65_536

  /// Whether anything waits to be folded into the store.
  var hasPendingChanges: Bool { !pending.isEmpty }

  /// Adds totals kept elsewhere (the app's own UserDefaults counters) to `day`, once per
  /// `key`. Returns `false` if that key was imported before.
  mutating func importTotals(app: Int64, screens: [String: Int64], on day: Day, key: String) -> Bool {
    let marker = "import:" + key
    guard listenerStates[marker] == nil else { return false }
    if app > 0 {
      self.app.add(app, on: day)
      pending.add(app, day: day, screen: -1)
    }
    for (name, nanos) in screens.sorted(by: { $0.key < $1.key }) where nanos > 0 {
      let index = intern(name)
      self.screens[Int(index)].tally.add(nanos, on: day)
      pending.add(nanos, day: day, screen: index)
    }
    if creditedDays.last != day { creditedDays.append(day) }
    saveState("imported", for: marker)
    return true
  }

  /// The events since the previous call.
  mutating func takeEvents() -> [UsageEvent] {
    guard !events.isEmpty else { return [] }
    defer { events = [] }
    return events
  }

  /// Adds points to the ledger.
  mutating func award(_ award: Award) {
    points.addSaturating(award.points)
    pending.awards.append(award)
    revision &+= 1
  }

  /// The largest state a listener may keep: 64 KiB (``UsageAction/saveState(source:data:)``).
  static let largestState = 64 << 10

  /// Replaces a listener's saved state; one larger than ``largestState`` is not kept (the
  /// Lua runtime refuses it first, with the plugin's name).
  mutating func saveState(_ data: String, for source: String) {
    guard data.utf8.count <= Self.largestState else { return }
    // Byte for byte: `String.==` takes "é" and "e" + U+0301 as equal.
    guard listenerStates[source].map({ $0.utf8.elementsEqual(data.utf8) }) != true else { return }
    listenerStates[source] = data
    pending.listenerStates[source] = data
    revision &+= 1
  }

  /// Records an unlock so the next journal write and fold persist it.
  mutating func recordUnlock(_ unlock: UnlockRecord) {
    if unlock.period != nil {
      pending.earnings.append(unlock)
    } else {
      pending.unlocks.append(unlock)
    }
    revision &+= 1
  }
}
