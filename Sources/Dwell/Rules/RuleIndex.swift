/// The rule book's wake-up index: rules that wait for one figure that only grows to reach a
/// threshold, sorted by threshold per figure, so a wake-up looks at the rules whose
/// threshold the new value crossed and not at all the others.
///
/// A rule whose condition is `appSeconds`, `screen` + `seconds`, `screen` + `visits` or
/// `sessions` alone is a rung on its figure's ladder; the ladder's cursor passes every rung
/// whose threshold the figure has reached (those rules hold, and hold for ever since the
/// figure never shrinks). Every other condition is evaluated rule by rule, as before.
package struct RuleIndex {
  /// A figure of the accountant that never decreases.
  package enum Figure: Hashable {
    case app
    case screen(String)
    case visits(String)
    case sessions
  }

  /// One figure's rules, by threshold, and how far the figure has got.
  struct Ladder {
    let figure: Figure
    /// (threshold, index in the book's rules), sorted by threshold, then index.
    var rungs: [(threshold: Int64, rule: Int)]
    /// The first rung not yet reached.
    var next = 0
    /// For a screen's figure: where the screen sits in the accountant's screens once seen
    /// (screens are only ever appended there), so its value is read without hashing its
    /// name; -1 before. `missed` is how many screens there were at the last failed lookup.
    var slot: Int32 = -1
    var missed = -1

    var upcoming: Int64? { next < rungs.count ? rungs[next].threshold : nil }
  }

  private(set) var ladders: [Ladder]
  /// Indexes of the waiting rules whose conditions are not on a ladder.
  var others: [Int]

  /// Splits `waiting` (indexes into `rules`) between ladders and the others.
  init(rules: [Rule], waiting: [Int]) {
    var byFigure: [Figure: [(threshold: Int64, rule: Int)]] = [:]
    var others: [Int] = []
    for index in waiting {
      // A rule with dates counts only some days' figures: evaluated on its own.
      if rules[index].range == nil, let (figure, threshold) = Self.rung(rules[index].condition) {
        byFigure[figure, default: []].append((threshold, index))
      } else {
        others.append(index)
      }
    }
    ladders = byFigure.map { figure, rungs in
      Ladder(figure: figure, rungs: rungs.sorted { ($0.threshold, $0.rule) < ($1.threshold, $1.rule) })
    }
    ladders.sort { $0.rungs[0].rule < $1.rungs[0].rule }
    self.others = others
  }

  /// The figure and threshold of a condition that is one threshold on one growing figure.
  package static func rung(_ condition: Condition) -> (Figure, Int64)? {
    switch condition {
    case .appTime(let d): return (.app, d.nanoseconds)
    case .screenTime(let name, let d): return (.screen(name), d.nanoseconds)
    case .visits(let name, let n): return (.visits(name), Int64(n))
    case .sessions(let n): return (.sessions, Int64(n))
    default: return nil
    }
  }

  /// Whether any rule, on a ladder or not, may still unlock.
  var isEmpty: Bool { others.isEmpty && !ladders.contains { $0.next < $0.rungs.count } }

  /// Whether ladder `i` has rungs left.
  func hasRungs(_ i: Int) -> Bool { ladders[i].next < ladders[i].rungs.count }

  /// The value now of ladder `i`'s figure: what its thresholds are compared with.
  mutating func value(of i: Int, _ accountant: borrowing Accountant) -> Int64 {
    switch ladders[i].figure {
    case .app: return accountant.app.nanos
    case .sessions: return Int64(accountant.sessions)
    case .screen: return screen(of: i, accountant).map { accountant.screens[Int($0)].tally.nanos } ?? 0
    case .visits: return Int64(screen(of: i, accountant).map { accountant.screens[Int($0)].visits } ?? 0)
    }
  }

  /// Where ladder `i`'s screen sits in the accountant's screens; `nil` while it was never seen.
  mutating func screen(of i: Int, _ accountant: borrowing Accountant) -> Int32? {
    let slot = ladders[i].slot
    if slot >= 0, slot < accountant.screens.count { return slot }
    // No new screen since the last lookup: still not seen.
    guard ladders[i].missed != accountant.screens.count else { return nil }
    let name: String
    switch ladders[i].figure {
    case .screen(let screen), .visits(let screen): name = screen
    case .app, .sessions: return nil
    }
    guard let found = accountant.screenIndex[name] else {
      ladders[i].missed = accountant.screens.count
      return nil
    }
    ladders[i].slot = found
    return found
  }

  /// Moves ladder `i`'s cursor past the thresholds `have` reached; appends the rules passed
  /// to `reached`, and counts the ladder and every rung passed in `examined`.
  mutating func climb(_ i: Int, to have: Int64, into reached: inout [Int], examined: inout Int) {
    examined += 1
    while let threshold = ladders[i].upcoming, threshold <= have {
      reached.append(ladders[i].rungs[ladders[i].next].rule)
      ladders[i].next += 1
      examined += 1
    }
  }
}
