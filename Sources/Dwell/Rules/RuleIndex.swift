/// The rule book's wake-up index: rules that wait for one figure that only grows to reach a
/// threshold, sorted by threshold per figure, so a wake-up looks at the rules whose
/// threshold the new value crossed and not at all the others.
///
/// A rule whose condition is `appSeconds`, `screen` + `seconds`, `screen` + `visits` or
/// `sessions` alone is a rung on its figure's ladder; the ladder's cursor passes every rung
/// whose threshold the figure has reached (those rules hold, and hold for ever since the
/// figure never shrinks). Every other condition is evaluated rule by rule, as before.
struct RuleIndex {
  /// A figure of the accountant that never decreases.
  enum Figure: Hashable {
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
      if let (figure, threshold) = Self.rung(rules[index].condition) {
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
  static func rung(_ condition: Condition) -> (Figure, Int64)? {
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

  /// The figure of ladder `i`, when it has rungs left.
  func figure(of i: Int) -> Figure? { ladders[i].next < ladders[i].rungs.count ? ladders[i].figure : nil }

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
