// Screen groups: which groups the accountant measures (those the rules in force name), how
// each starts from the figures its screens already have, and its visits from theirs.

extension Accountant {
  /// Measures the screen groups named `names` (``ScreenGroup``, from the rules in force) and
  /// no others, from the cursor on. A group's time runs, once, while any of its screens
  /// accrues; it is credited and stored like a screen's (under the group's measured name).
  ///
  /// What a group counts before it was measured: on each day, at least the largest time any
  /// one of its screens has that day (exact on days only one of them was used unmeasured; a
  /// union is never less). What was measured (stored) is kept, and only raised to that
  /// floor, so a group's figures never shrink: across a reload, a relaunch, or its rules
  /// leaving and coming back. Its visits are always its screens' added up, all days.
  mutating func measure(groups names: [String]) {
    for index in screens.indices where !screens[index].groups.isEmpty { screens[index].groups = [] }
    for group in measuredGroups where screens[Int(group)].visible > 0 {
      screens[Int(group)].visible = 0
      visibleScreens.removeAll { $0 == group }
    }
    measuredGroups = []
    for name in names {
      guard let measured = ScreenGroup.measured(name), let members = ScreenGroup.members(measured),
        members.count >= 2
      else { continue }
      let group = intern(measured)
      screenIndex[name] = group  // the rule's own order of names finds the same figures
      guard !measuredGroups.contains(group) else { continue }
      measuredGroups.append(group)
      var visits = 0
      var visitDays: [Day: Int] = [:]
      var visible = 0
      var floor: [Day: Int64] = [:]
      for member in members.map({ intern($0) }) {
        screens[Int(member)].groups.append(group)
        let usage = screens[Int(member)]
        visits.addSaturating(usage.visits)
        for (day, count) in usage.tally.visitDays { visitDays[day, default: 0].addSaturating(count) }
        visible += usage.visible
        for (day, nanos) in usage.tally.days where nanos > floor[day] ?? 0 { floor[day] = nanos }
      }
      screens[Int(group)].visits = visits
      screens[Int(group)].tally.visitDays = visitDays
      screens[Int(group)].visible = visible
      if visible > 0 { visibleScreens.append(group) }
      for (day, nanos) in floor.sorted(by: { $0.key < $1.key }) {
        let missing = nanos - screens[Int(group)].tally.nanos(on: day)
        guard missing > 0 else { continue }
        screens[Int(group)].tally.add(missing, on: day)
        if keepsPendingTotals { pending.add(missing, day: day, screen: group) }
      }
    }
    revision &+= 1
  }
}
