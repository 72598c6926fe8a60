internal import Foundation

/// What one fold writes, or one journal record holds: changes by screen name, plus the
/// visits still open (journal only: a fold leaves them to the next one).
struct CheckpointBatch: Sendable, Equatable {
  var boot: String
  var days: [Entry] = []
  var visits: [VisitCount] = []
  var closedVisits: [VisitRecord] = []
  var openVisits: [VisitRecord] = []
  var sessions = 0
  var lastStop: StopMark?
  var unlocks: [UnlockRecord] = []
  var awards: [Award] = []
  var listenerStates: [ListenerState] = []
  var actions: [ActionCount] = []
  var sessionDays: [SessionCount] = []
  var earnings: [UnlockRecord] = []
  /// A journal record's only: the fold that was under way when it was written
  /// (`CheckpointBatch+InFlight.swift`).
  var inFlight: InFlightFold?

  struct ActionCount: Sendable, Equatable {
    var name: String
    var day: Day
    var count: Int
  }

  struct SessionCount: Sendable, Equatable {
    var day: Day
    var count: Int
  }

  struct ListenerState: Sendable, Equatable {
    var source: String
    var data: String
  }

  struct Entry: Sendable, Equatable {
    var day: Day
    /// `nil` for the whole app.
    var screen: String?
    var nanos: Int64
  }

  struct VisitCount: Sendable, Equatable {
    var screen: String
    /// The day the visits began; `nil` in a journal from before visits were kept by day.
    var day: Day?
    var count: Int
  }

  // MARK: Journal encoding

  /// The batch in the journal's binary form, after `headerSpace` zero bytes.
  func encoded(headerSpace: Int = 0) -> [UInt8] {
    var w = BinaryWriter(reserved: headerSpace)
    // Format version: 2 keeps visit counts by day, 3 actions, sessions by day, earnings, 4 the
    // fold under way (written only when there is one, so that a record stays readable by
    // the versions before).
    w.int(inFlight == nil ? 3 : 4)
    w.string(boot)
    w.int(days.count)
    for entry in days {
      w.int(Int(entry.day.ordinal))
      w.bool(entry.screen != nil)
      w.string(entry.screen ?? "")
      w.int64(entry.nanos)
    }
    w.int(visits.count)
    for visit in visits {
      w.string(visit.screen)
      w.bool(visit.day != nil)
      w.int(Int(visit.day?.ordinal ?? 0))
      w.int(visit.count)
    }
    for list in [closedVisits, openVisits] {
      w.int(list.count)
      for visit in list {
        w.string(visit.screen)
        w.int64(visit.started.nanosecondsSince1970)
        w.int64(visit.ended.nanosecondsSince1970)
        w.int64(visit.activeNanos)
      }
    }
    w.int(sessions)
    w.bool(lastStop != nil)
    if let lastStop {
      w.int64(lastStop.mono)
      w.string(lastStop.boot)
      w.int64(lastStop.wall.nanosecondsSince1970)
    }
    w.int(unlocks.count)
    for unlock in unlocks {
      w.string(unlock.rule)
      w.int64(unlock.mono.nanoseconds)
      w.string(unlock.boot)
      w.int64(unlock.wall.nanosecondsSince1970)
      w.int(unlock.points)
    }
    w.int(awards.count)
    for award in awards {
      w.string(award.source)
      w.int(award.points)
      w.string(award.reason)
      w.int64(award.wall.nanosecondsSince1970)
    }
    w.int(listenerStates.count)
    for state in listenerStates {
      w.string(state.source)
      w.string(state.data)
    }
    w.int(actions.count)
    for action in actions {
      w.string(action.name)
      w.int(Int(action.day.ordinal))
      w.int(action.count)
    }
    w.int(sessionDays.count)
    for session in sessionDays {
      w.int(Int(session.day.ordinal))
      w.int(session.count)
    }
    w.int(earnings.count)
    for earning in earnings {
      w.string(earning.rule)
      w.string(earning.period ?? "")
      w.int64(earning.mono.nanoseconds)
      w.string(earning.boot)
      w.int64(earning.wall.nanosecondsSince1970)
      w.int(earning.points)
    }
    encodeInFlight(&w)
    return w.bytes
  }

  init(boot: String) { self.boot = boot }

  /// Everything a store holds, as one batch to fold into another store.
  init(moving store: Store) throws {
    let usage = try store.load()
    self.init(boot: usage.lastStop?.boot ?? "")
    days = usage.app.days.map { Entry(day: $0.key, screen: nil, nanos: $0.value) }
    for screen in usage.screens {
      days += screen.tally.days.map { Entry(day: $0.key, screen: screen.name, nanos: $0.value) }
      var dated = 0
      for (day, count) in screen.tally.visitDays {
        visits.append(VisitCount(screen: screen.name, day: day, count: count))
        dated += count
      }
      if screen.visits > dated {
        visits.append(VisitCount(screen: screen.name, day: nil, count: screen.visits - dated))
      }
    }
    closedVisits = try store.allVisits()
    sessions = usage.sessions
    lastStop = usage.lastStop
    unlocks = usage.unlocks
    earnings = usage.earnings
    for (name, tally) in usage.actions {
      actions += tally.days.map { ActionCount(name: name, day: $0.key, count: $0.value) }
    }
    sessionDays = usage.sessionDays.map { SessionCount(day: $0.key, count: $0.value) }
    if usage.points != 0 {
      awards = [Award(source: "dwell", points: usage.points, reason: "counted in memory", wall: WallInstant(Date()))]
    }
    listenerStates = usage.listenerStates.map { ListenerState(source: $0.key, data: $0.value) }
  }

  /// Decodes a journal record; `nil` if it is malformed.
  init?(decoding bytes: ArraySlice<UInt8>) {
    var r = BinaryReader(bytes)
    guard let version = r.int(), (1...4).contains(version), let boot = r.string(), let dayCount = r.int()
    else { return nil }
    self.boot = boot
    for _ in 0..<dayCount {
      // A figure the store would refuse (Store+Values) makes the record malformed: folded,
      // it would overflow the store's sums or make the store damaged.
      guard let ordinal = r.int64(), let hasScreen = r.bool(), let screen = r.string(), let nanos = r.int64(),
        let ordinal32 = Int32(exactly: ordinal), (0...Store.maximumDayNanos).contains(nanos),
        !hasScreen || Store.isName(screen)
      else { return nil }
      days.append(Entry(day: Day(ordinal: ordinal32), screen: hasScreen ? screen : nil, nanos: nanos))
    }
    guard let visitCount = r.int() else { return nil }
    for _ in 0..<visitCount {
      guard let screen = r.string(), Store.isName(screen) else { return nil }
      var day: Day?
      if version >= 2 {
        guard let dated = r.bool(), let ordinal = r.int64().flatMap({ Int32(exactly: $0) }) else { return nil }
        day = dated ? Day(ordinal: ordinal) : nil
      }
      guard let count = r.int() else { return nil }
      visits.append(VisitCount(screen: screen, day: day, count: count))
    }
    for list in 0..<2 {
      guard let count = r.int() else { return nil }
      for _ in 0..<count {
        guard let screen = r.string(), Store.isName(screen), let started = r.int64(), let ended = r.int64(),
          let active = r.int64(), active >= 0
        else { return nil }
        let visit = VisitRecord(
          screen: screen, started: WallInstant(nanosecondsSince1970: started),
          ended: WallInstant(nanosecondsSince1970: ended), activeNanos: active)
        if list == 0 { closedVisits.append(visit) } else { openVisits.append(visit) }
      }
    }
    guard let sessions = r.int(), let hasStop = r.bool() else { return nil }
    self.sessions = sessions
    if hasStop {
      guard let mono = r.int64(), let stopBoot = r.string(), let wall = r.int64() else { return nil }
      lastStop = StopMark(mono: mono, boot: stopBoot, wall: WallInstant(nanosecondsSince1970: wall))
    }
    guard let unlockCount = r.int() else { return nil }
    for _ in 0..<unlockCount {
      guard let rule = r.string(), let mono = r.int64(), let unlockBoot = r.string(), let wall = r.int64(),
        let points = r.int64().flatMap({ Int(exactly: $0) }), Store.isPoints(points)
      else { return nil }
      unlocks.append(
        UnlockRecord(
          rule: rule, mono: MonotonicInstant(nanoseconds: mono), boot: unlockBoot,
          wall: WallInstant(nanosecondsSince1970: wall), points: points))
    }
    guard let awardCount = r.int() else { return nil }
    for _ in 0..<awardCount {
      guard let source = r.string(), let points = r.int64(), let reason = r.string(), let wall = r.int64(),
        let value = Int(exactly: points), Store.isPoints(value)
      else { return nil }
      awards.append(Award(source: source, points: value, reason: reason, wall: WallInstant(nanosecondsSince1970: wall)))
    }
    guard let stateCount = r.int() else { return nil }
    for _ in 0..<stateCount {
      guard let source = r.string(), let data = r.string() else { return nil }
      listenerStates.append(ListenerState(source: source, data: data))
    }
    if version >= 3, !decodeCounts(&r) { return nil }
    if version >= 4, !decodeInFlight(&r) { return nil }
    guard r.isAtEnd else { return nil }
  }
}

extension StopMark {
  /// Whether this stop came after `other`: by the monotonic clock within one boot,
  /// otherwise by the wall clock.
  func isAfter(_ other: StopMark) -> Bool {
    boot == other.boot ? mono > other.mono : wall > other.wall
  }
}
