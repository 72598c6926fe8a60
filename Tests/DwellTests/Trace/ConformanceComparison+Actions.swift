import Foundation

/// The comparison of a report's `actions` and `recurring` (cases 16-21): action counts
/// exactly, but for those a crash may lose; earnings within 1 ms, or after a crash later,
/// never earlier, and perhaps fewer by the crashes.
extension ConformanceComparison {
  mutating func compareActions(_ got: [String: Any]) {
    let actions = expected["actions"] as? [String: [String: Any]] ?? [:]
    let gotActions = got["actions"] as? [String: [String: Any]] ?? [:]
    for name in Set(actions.keys).union(gotActions.keys).sorted() {
      let lost = budget.actions[name] ?? 0
      guard let want = actions[name] else {
        differences.append("actions[\(name)]: not expected")
        continue
      }
      let have = gotActions[name] ?? ["count": 0, "days": [String: Any]()]
      count("actions[\(name)].count", want["count"], have["count"], below: lost)
      let wantDays = want["days"] as? [String: Any] ?? [:]
      let haveDays = have["days"] as? [String: Any] ?? [:]
      for day in Set(wantDays.keys).union(haveDays.keys).sorted() {
        count("actions[\(name)].days[\(day)]", wantDays[day] ?? 0, haveDays[day] ?? 0, below: lost)
      }
    }
    guard let recurring = expected["recurring"] as? [String: [NSNumber]] else {
      if got["recurring"] != nil { differences.append("recurring: not expected") }
      return
    }
    let gotRecurring = got["recurring"] as? [String: [NSNumber]] ?? [:]
    for rule in Set(recurring.keys).union(gotRecurring.keys).sorted() {
      guard let want = recurring[rule]?.map(\.doubleValue), let have = gotRecurring[rule]?.map(\.doubleValue) else {
        differences.append("recurring[\(rule)]: \(recurring[rule] == nil ? "not expected" : "missing")")
        continue
      }
      if budget.crashes == 0 {
        if want.count != have.count || zip(want, have).contains(where: { abs($0 - $1) > Self.tolerance }) {
          differences.append("recurring[\(rule)]: expected \(want), got \(have)")
        }
        continue
      }
      // After crashes: each earning matches one expected no later than it, in order.
      var next = 0
      for instant in have {
        while next < want.count, next + 1 < want.count, want[next + 1] <= instant + Self.tolerance { next += 1 }
        if next >= want.count || want[next] > instant + Self.tolerance {
          differences.append("recurring[\(rule)]: earned at \(instant), earlier than possible (\(want))")
          break
        }
        next += 1
      }
      if have.count > want.count || have.count < want.count - budget.crashes {
        differences.append("recurring[\(rule)]: expected \(want.count) earnings, got \(have.count)")
      }
    }
  }
}
