internal import Dwell

/// Parses the durations designers type: `90s`, `10m`, `1h30m`, `2d`, `45` (seconds), `1.5h`.
enum SimDuration {
  static func parse(_ text: String) -> Duration? {
    let lower = text.lowercased()
    guard !lower.isEmpty else { return nil }
    if let seconds = Double(lower), seconds >= 0, seconds.isFinite {
      return .milliseconds(Int64((seconds * 1000).rounded()))
    }
    var total = 0.0
    var number = ""
    var sawUnit = false
    for character in lower {
      if character.isNumber || character == "." {
        number.append(character)
        continue
      }
      guard let value = Double(number) else { return nil }
      switch character {
      case "s": total += value
      case "m": total += value * 60
      case "h": total += value * 3600
      case "d": total += value * 86400
      case "w": total += value * 604_800
      default: return nil
      }
      number = ""
      sawUnit = true
    }
    guard number.isEmpty, sawUnit, total.isFinite, total <= 3650 * 86400 else { return nil }
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
