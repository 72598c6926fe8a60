internal import Foundation

/// Shrinking a trace that breaks an invariant: drop runs of commands (halves, quarters...,
/// then one at a time), try UTC and a plain start, then halve each wait, skip and clock
/// jump, keeping every change after which some invariant still breaks, until none helps or
/// ``Fuzzer/Options/shrinkRuns`` runs were made.
extension Fuzzer {
  /// The shortest script found that still breaks an invariant, with that breach.
  func shrink(_ script: Script, breach: String) -> (script: Script, breach: String) {
    var best = (script: script, breach: breach)
    var runs = 0
    /// Runs `candidate`; keeps it when it still fails.
    func keep(_ candidate: Script) -> Bool {
      guard runs < options.shrinkRuns else { return false }
      runs += 1
      guard let outcome = try? run(candidate), let breach = outcome.breach else { return false }
      best = (outcome.script, breach)
      return true
    }
    var changed = true
    while changed && runs < options.shrinkRuns {
      changed = false
      var size = max(1, best.script.steps.count / 2)
      while size >= 1 {
        var start = 0
        while start < best.script.steps.count {
          var candidate = best.script
          candidate.steps.removeSubrange(start..<min(start + size, candidate.steps.count))
          if keep(candidate) { changed = true } else { start += size }
        }
        size /= 2
      }
      // A plainer start and zone, when the breach does not need them.
      if best.script.zone != "UTC", keep(Script(start: best.script.start, zone: "UTC", steps: best.script.steps)) {
        changed = true
      }
      let plain = "2026-05-04 09:00"
      if best.script.start != plain, keep(Script(start: plain, zone: best.script.zone, steps: best.script.steps)) {
        changed = true
      }
      for index in best.script.steps.indices {
        while index < best.script.steps.count, let shorter = Self.shortened(best.script.steps[index]) {
          var candidate = best.script
          candidate.steps[index] = shorter
          guard keep(candidate) else { break }
          changed = true
        }
      }
    }
    return best
  }

  /// `step` with its duration or count halved (`wait 10m` → `wait 5m`, `skip 8 days` →
  /// `skip 4 days`, `clock +2h` → `clock +1h`); `nil` when it has none left to halve.
  static func shortened(_ step: String) -> String? {
    let words = step.split(separator: " ").map(String.init)
    if words.count == 2, words[0] == "wait", let seconds = seconds(words[1]), seconds > 1 {
      return "wait \(Self.words(seconds: seconds / 2))"
    }
    if words.count == 2, words[0] == "clock", let sign = words[1].first, sign == "+" || sign == "-",
      let seconds = seconds(String(words[1].dropFirst())), seconds > 60
    {
      return "clock \(sign)\(Self.words(seconds: seconds / 2))"
    }
    if words.count == 3, words[0] == "skip", let days = Int(words[1]), days > 1 {
      return "skip \(days / 2) days"
    }
    return nil
  }

  /// The seconds of a duration the fuzzer wrote: 90s, 45m, 2h, 3d.
  private static func seconds(_ text: String) -> Int? {
    guard let unit = text.last, let number = Int(text.dropLast()), (0..<1_000_000).contains(number) else { return nil }
    switch unit {
    case "s": return number
    case "m": return number * 60
    case "h": return number * 3600
    case "d": return number * 86400
    default: return nil
    }
  }
}
