internal import Dwell

/// Parses the durations designers type (`90s`, `10m`, `1h30m`, `2d`, `1w`, `1.5h`, `45` for
/// seconds) and writes durations back in words.
enum SimDuration {
  /// The longest single `wait`: ten years.
  static let longest: Double = 3650 * 86400

  static let forms = "90s, 10m, 1h30m, 1.5h, 2d, 1w, or a number of seconds"

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
      var sawUnit = false
      for character in lower {
        if character.isNumber || character == "." {
          number.append(character)
          continue
        }
        let scale: Double
        switch character {
        case "s": scale = 1
        case "m": scale = 60
        case "h": scale = 3600
        case "d": scale = 86400
        case "w": scale = 604_800
        default: throw .init("'\(text)' is not a duration: \(forms)")
        }
        guard let value = Double(number) else { throw .init("'\(text)' is not a duration: \(forms)") }
        total += value * scale
        number = ""
        sawUnit = true
      }
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
