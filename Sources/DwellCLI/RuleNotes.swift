// What a valid rule set most likely does not mean: screen names apart only by case, tiers out of order.
internal import Dwell

/// Notes `dwell rules check` prints under a valid rule set: nothing is wrong with the rules
/// as written, but a designer most likely meant something else.
enum RuleNotes {
  static func notes(_ rules: [Rule]) -> [String] { caseNotes(rules) + tierNotes(rules) }

  /// Screen names that differ only in case count as different screens.
  static func caseNotes(_ rules: [Rule]) -> [String] {
    var spellings: [String: [String: [String]]] = [:]  // lowercased -> spelling -> rule ids
    for rule in rules {
      for screen in Set(rule.condition.screens) {
        spellings[screen.lowercased(), default: [:]][screen, default: []].append(rule.id)
      }
    }
    return spellings.values.filter { $0.count > 1 }.map { names in
      let named = names.keys.sorted().map { name in
        let ids = names[name] ?? []
        return "'\(name)' (\(ids.count == 1 ? "rule" : "rules") \(ids.joined(separator: ", ")))"
      }
      return "screens \(named.joined(separator: " and ")) differ only in case: screen names are "
        + "case-sensitive, so these count as different screens"
    }.sorted()
  }

  /// The tiers of an achievement, each with a threshold of the same kind as the one before
  /// it, reached before it.
  static func tierNotes(_ rules: [Rule]) -> [String] {
    var notes: [String] = []
    var previous: Rule?
    for rule in rules {
      defer { previous = rule }
      guard let achievement = rule.achievement, let tier = rule.tier, let before = previous,
        before.achievement == achievement, let lower = before.tier,
        let a = threshold(before.condition), let b = threshold(rule.condition), a.kind == b.kind, b.value < a.value
      else { continue }
      notes.append(
        "achievement '\(achievement)': tier '\(tier)' (\(rule.condition)) comes after tier '\(lower)' "
          + "(\(before.condition)) but is reached first")
    }
    return notes
  }

  /// What a tier's condition measures, when it is one threshold on one figure: tiers on the
  /// same measure are reached in the order of their thresholds.
  private enum Measure: Equatable {
    case figure(RuleIndex.Figure)
    case activeDays(Duration?, String?)
    case streak(Duration?, String?)
  }

  private static func threshold(_ condition: Condition) -> (kind: Measure, value: Int64)? {
    if let (figure, value) = RuleIndex.rung(condition) { return (.figure(figure), value) }
    switch condition {
    case .activeDays(let count, let minimum, let screen): return (.activeDays(minimum, screen), Int64(count))
    case .streak(let count, let minimum, let screen): return (.streak(minimum, screen), Int64(count))
    default: return nil
    }
  }
}
