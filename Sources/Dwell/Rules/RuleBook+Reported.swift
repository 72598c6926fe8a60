// Progress that plugins report for the rules they unlock (`p.progress` in a Lua pack).

extension RuleBook {
  /// Keeps what a plugin says of a rule's progress: shown instead of the computed progress
  /// until the rule unlocks. An id the book does not have is ignored (the pack checked it);
  /// `fraction` is clamped to 0...1 (a NaN counts as 0).
  ///
  /// - Complexity: O(1) for a rule that already has a report (a plugin reporting every
  ///   tick); O(rules) for its first.
  mutating func report(progress fraction: Double, _ summary: String, of rule: String) {
    let clamped = fraction.isNaN ? 0 : min(1, max(0, fraction))
    let percent = Int((clamped * 100).rounded(.down))
    let text = summary.isEmpty ? "\(percent)% (as its plugin reports)" : summary
    if let known = reported[rule] {
      if known.fraction == clamped, known.summary == text { return }
    } else if !rules.contains(where: { $0.id == rule }) {
      return
    }
    reported[rule] = RuleProgress(
      fraction: clamped, summary: text, remaining: clamped >= 1 ? "" : "the plugin reports \(percent)%",
      isUnlocked: false, parts: [])
  }

  /// Takes over the progress reported to the book this one replaces (a hot reload), for
  /// the rules both have: a plugin reports again at its next event.
  mutating func keep(reported earlier: [String: RuleProgress]) {
    let ids = Set(rules.map(\.id))
    reported = earlier.filter { ids.contains($0.key) }
  }
}
