/// "Did you mean ...?": the closest of a few known words to a misspelt one.
package enum Spelling {
  /// The word of `known` nearest to `word` (at most two edits, or a third of its length),
  /// or `nil` when none is close.
  ///
  /// ```swift
  /// Spelling.closest(to: "whn", in: ["when", "check"])  // "when"
  /// ```
  package static func closest(to word: String, in known: some Sequence<String>) -> String? {
    // A word far longer than any known one is near none of them; comparing it would cost
    // its length times theirs (a pack's megabyte key).
    guard word.utf8.count <= 256 else { return nil }
    let limit = max(1, min(2, word.count / 3))
    // Only words of about its length can be near (an edit changes a character, at most 4
    // bytes), found in one pass of O(1) counts; past `comparedAtMost` of them there is no
    // hint (a pack's 20,000 ids would cost that many edit distances for one message).
    let length = word.utf8.count
    var near: [String] = []
    for candidate in known where abs(candidate.utf8.count - length) <= 4 * limit {
      guard near.count < comparedAtMost else { return nil }
      near.append(candidate)
    }
    let letters = Array(word.lowercased())
    var best: (word: String, distance: Int)?
    for candidate in near {
      let distance = editDistance(letters, Array(candidate.lowercased()))
      // The nearest, and of those the first in sorted order, whatever order `known` has.
      guard distance <= limit, let current = best else {
        if distance <= limit { best = (candidate, distance) }
        continue
      }
      if distance < current.distance || (distance == current.distance && candidate < current.word) {
        best = (candidate, distance)
      }
    }
    return best?.word
  }

  /// The most words ``closest(to:in:)`` compares with: with more of about the word's length,
  /// it gives no hint.
  package static let comparedAtMost = 200

  /// " (did you mean 'when'?)" or "".
  package static func hint(for word: String, in known: some Sequence<String>) -> String {
    closest(to: word, in: known).map { " (did you mean '\($0)'?)" } ?? ""
  }

  /// Levenshtein distance with transpositions counted as one edit.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var row = [i] + [Int](repeating: 0, count: b.count)
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { row[j] = min(row[j], previous2[j - 2] + 1) }
      }
      previous2 = previous
      previous = row
    }
    return previous[b.count]
  }
}
