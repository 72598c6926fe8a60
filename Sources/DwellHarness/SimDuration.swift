internal import Dwell

/// Parses the durations designers type (`90s`, `10m`, `1h30m`, `2d`, `1w`, `1.5h`, `45` for
/// seconds, and in words: `10 minutes`, `1 hour 30 min`) and writes durations back in words.
enum SimDuration {
  /// The longest single `wait`: ten years.
  static let longest: Double = 3650 * 86400

  static let forms = "90s, 10m, 1h30m, 1.5h, 2d, 1w, 10 minutes, or a number of seconds"

  /// Seconds in each unit, by its letter and its words.
  static let units: [String: Double] = {
    var units: [String: Double] = [:]
    let names: [(Double, [String])] = [
      (1, ["s", "sec", "secs", "second", "seconds"]), (60, ["m", "min", "mins", "minute", "minutes"]),
      (3600, ["h", "hr", "hrs", "hour", "hours"]), (86400, ["d", "day", "days"]),
      (604_800, ["w", "wk", "wks", "week", "weeks"]),
    ]
    for (scale, words) in names { for word in words { units[word] = scale } }
    return units
  }()

  /// The duration `text` names.
  ///
  /// - Throws: a message saying which forms there are, that durations are not negative,
  ///   or that one wait is at most ten years.
  static func parse(_ text: String) throws(Simulator.CommandError) -> Duration {
    let lower = text.lowercased()
    guard !lower.isEmpty else { throw .init("wait takes a duration: \(forms)") }
    if lower.hasPrefix("-") {
      throw .init(
        "a duration cannot be negative ('\(text)'); to move the wall clock back, use 'clock -\(lower.dropFirst())'")
    }
    var total = 0.0
    if let seconds = Double(lower), seconds.isFinite {
      total = seconds
    } else {
      var number = ""
      var unit = ""
      var sawUnit = false
      // A number, then its unit (a letter or a word), then the next: spaces may separate them.
      func add() throws(Simulator.CommandError) {
        guard !unit.isEmpty else { return }
        guard let scale = units[unit] else {
          let said = number.isEmpty ? "" : " '\(unit)' is not a unit;"
          throw .init("'\(text)' is not a duration:\(said) \(forms)")
        }
        guard let value = Double(number) else { throw .init("'\(text)' is not a duration: \(forms)") }
        total += value * scale
        (number, unit, sawUnit) = ("", "", true)
      }
      for character in lower {
        if character.isNumber || character == "." {
          try add()
          number.append(character)
        } else if character.isLetter {
          unit.append(character)
        } else if character != " " {
          throw .init("'\(text)' is not a duration: \(forms)")
        }
      }
      try add()
      guard number.isEmpty, sawUnit, total.isFinite else { throw .init("'\(text)' is not a duration: \(forms)") }
    }
    guard total <= longest else {
      throw .init("'\(text)' is \(Int(min(total, 1e15) / 86400)) days; one wait is at most 3650 days (10 years)")
    }
    return .milliseconds(Int64((total * 1000).rounded()))
  }

  /// "1h 05m", "12m 30s", "45s".
  static func words(_ duration: Duration) -> String {
    let total = Int(duration.seconds.rounded(.down))
    if total < 60 { return "\(total)s" }
    if total < 3600 { return "\(total / 60)m \(pad(total % 60))s" }
    return "\(total / 3600)h \(pad(total / 60 % 60))m"
  }

  static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
