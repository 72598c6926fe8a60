// Lifecycle events: how each one (active, background, a screen appearing, a clock change...)
// moves the accountant's state, and taking over another engine's live state.

extension Accountant {
  // MARK: Events

  /// Applies one event at instant `m` (after ``advance(to:)`` to the same instant).
  mutating func apply(_ event: LifecycleEvent, at m: Int64) {
    advance(to: m)
    revision &+= 1
    switch event {
    case .active:
      if !isActive {
        isActive = true
        if startsSession(at: m) {
          sessions += 1
          pending.sessions += 1
          let day = span(at: m).day  // a session counts on the day it starts
          sessionDays[day, default: 0].addSaturating(1)
          if keepsPendingTotals { pending.sessionDays[day, default: 0] += 1 }
          if collectsEvents { events.append(.sessionStarted) }
        }
      }
      resetIdle(at: m)
    case .inactive, .background, .foreground, .terminate:
      if isActive {
        isActive = false
        lastStop = StopMark(mono: m, boot: boot, wall: wall(at: m))
        pending.lastStop = lastStop
        if collectsEvents { events.append(.paused) }
      }
      if case .terminate = event {
        for visit in visits { hide(visit.id, at: m) }
      }
    case .appear(let name, let id):
      if !visits.contains(where: { $0.id == id }) {
        let index = intern(name)
        let day = span(at: m).day  // a visit counts on the day it begins
        screens[Int(index)].visits += 1
        screens[Int(index)].tally.addVisits(1, on: day)
        for group in screens[Int(index)].groups {
          // A group's visits are its members' added up: kept in memory, never stored.
          screens[Int(group)].visits += 1
          screens[Int(group)].tally.addVisits(1, on: day)
        }
        startAccruing(index)
        if keepsPendingTotals { pending.visits[VisitKey(day: day, screen: index), default: 0] += 1 }
        if collectsEvents { events.append(.screenEntered(name)) }
        visits.append(VisitState(id: id, screen: index, started: wall(at: m), activeNanos: 0))
      }
      resetIdle(at: m)
    case .disappear(let id):
      hide(id, at: m)
    case .pause(let id):
      setPaused(id, true)
    case .resume(let id):
      setPaused(id, false)
    case .interact:
      resetIdle(at: m)
    case .action(let name, let count):
      guard count > 0, !name.isEmpty else { return }
      let n = min(count, ActionTally.maximumCount)
      let day = span(at: m).day  // an action counts on the day of its instant
      actions[name, default: ActionTally()].add(n, on: day)
      if keepsPendingTotals { pending.actions[ActionKey(day: day, name: name), default: 0].addSaturating(n) }
      if collectsEvents { events.append(.action(name, n)) }
    case .clockChanged(let newWall, let zone):
      let current = wall(at: m)
      anchorMono = m
      anchorWall = newWall ?? current
      if let zone { calendar = DayCalendar(timeZone: zone) }
      daySpan = nil
    }
  }

  private mutating func hide(_ id: ScreenInstance, at m: Int64) {
    guard let position = visits.firstIndex(where: { $0.id == id }) else { return }
    let visit = visits.remove(at: position)
    let index = visit.screen
    if !visit.paused { stopAccruing(index) }
    if keepsPendingTotals {
      if pending.closedVisits.count < Self.maximumPendingVisitRecords {
        pending.closedVisits.append(record(visit, ended: wall(at: m)))
      } else {
        droppedVisitRecords += 1
      }
    }
    if collectsEvents { events.append(.screenLeft(screens[Int(index)].name)) }
    revision &+= 1
  }

  /// Pauses or resumes a visible instance: its visit goes on, only its accrual changes.
  private mutating func setPaused(_ id: ScreenInstance, _ paused: Bool) {
    guard let position = visits.firstIndex(where: { $0.id == id }), visits[position].paused != paused else { return }
    visits[position].paused = paused
    let index = visits[position].screen
    if paused {
      stopAccruing(index)
    } else {
      startAccruing(index)
    }
  }

  /// One more accruing instance of screen `index`.
  /// Its measured groups count it too: one accruing while any of their members is.
  private mutating func startAccruing(_ index: Int32) {
    screens[Int(index)].visible += 1
    if screens[Int(index)].visible == 1 { visibleScreens.append(index) }
    for group in screens[Int(index)].groups {
      screens[Int(group)].visible += 1
      if screens[Int(group)].visible == 1 { visibleScreens.append(group) }
    }
  }

  /// One accruing instance fewer of screen `index` (and of its measured groups).
  private mutating func stopAccruing(_ index: Int32) {
    screens[Int(index)].visible -= 1
    if screens[Int(index)].visible == 0 { visibleScreens.removeAll { $0 == index } }
    for group in screens[Int(index)].groups {
      screens[Int(group)].visible -= 1
      if screens[Int(group)].visible == 0 { visibleScreens.removeAll { $0 == group } }
    }
  }

  private mutating func resetIdle(at m: Int64) {
    guard let idleTimeout else { return }
    idleDeadline = m &+ idleTimeout
  }

  private func startsSession(at m: Int64) -> Bool {
    guard let lastStop else { return true }
    let gap: Int64
    if lastStop.boot == boot {
      gap = m - lastStop.mono
    } else {
      // Another boot: only the wall clock spans it. A clock set backwards starts a session.
      gap = wall(at: m).nanosecondsSince1970 - lastStop.wall.nanosecondsSince1970
      if gap < 0 { return true }
    }
    return gap >= sessionTimeout
  }

  mutating func intern(_ name: String) -> Int32 {
    if let index = screenIndex[name] { return index }
    let index = Int32(screens.count)
    screens.append(ScreenUsage(name: name))
    screenIndex[name] = index
    return index
  }

  /// The visible instances, their names and whether each is paused.
  var visibleInstances: [(name: String, id: ScreenInstance, paused: Bool)] {
    visits.map { (screens[Int($0.screen)].name, $0.id, $0.paused) }
  }

  /// Takes over another engine's live state without counting sessions or visits.
  mutating func adopt(active: Bool, visible: [(name: String, id: ScreenInstance, paused: Bool)]) {
    if active, !isActive {
      isActive = true
      if let idleTimeout { idleDeadline = cursor &+ idleTimeout }
    }
    for (name, id, paused) in visible where !visits.contains(where: { $0.id == id }) {
      let index = intern(name)
      if !paused { startAccruing(index) }
      visits.append(VisitState(id: id, screen: index, started: wall(at: cursor), activeNanos: 0, paused: paused))
    }
    revision &+= 1
  }
}

/// One visit in progress.
struct VisitState: Sendable {
  let id: ScreenInstance
  let screen: Int32
  let started: WallInstant
  var activeNanos: Int64
  /// Visible but not accruing (``LifecycleEvent/pause(id:)``).
  var paused = false
}
