/// Parses and formats ISO 8601 instants exactly, to the nanosecond, without Foundation's
/// formatters (which round through `Double` and differ across platforms).
enum ISO8601 {
  /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)`.
  static func parse(_ text: String) -> WallInstant? {
    let bytes = Array(text.utf8)
    var i = 0
    func number(_ count: Int) -> Int? {
      guard i + count <= bytes.count else { return nil }
      var value = 0
      for k in i..<(i + count) {
        guard bytes[k] >= 48, bytes[k] <= 57 else { return nil }
        value = value * 10 + Int(bytes[k] - 48)
      }
      i += count
      return value
    }
    func expect(_ byte: UInt8) -> Bool {
      guard i < bytes.count, bytes[i] == byte else { return false }
      i += 1
      return true
    }
    guard let year = number(4), expect(45), let month = number(2), expect(45),
      let dayOfMonth = number(2), i < bytes.count, bytes[i] == 84 || bytes[i] == 116
    else { return nil }
    i += 1
    guard let hour = number(2), expect(58), let minute = number(2), expect(58),
      let second = number(2), hour < 24, minute < 60, second < 61,
      let day = Day(year: year, month: month, day: dayOfMonth)
    else { return nil }
    var fraction: Int64 = 0
    if i < bytes.count, bytes[i] == 46 {
      i += 1
      var digits = 0
      while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
        if digits < 9 { fraction = fraction * 10 + Int64(bytes[i] - 48) }
        digits += 1
        i += 1
      }
      guard digits > 0 else { return nil }
      for _ in digits..<max(digits, 9) { fraction *= 10 }
    }
    var offsetSeconds = 0
    guard i < bytes.count else { return nil }
    if bytes[i] == 90 || bytes[i] == 122 {
      i += 1
    } else if bytes[i] == 43 || bytes[i] == 45 {
      let sign = bytes[i] == 45 ? -1 : 1
      i += 1
      guard let oh = number(2) else { return nil }
      _ = expect(58)
      guard let om = number(2), oh < 24, om < 60 else { return nil }
      offsetSeconds = sign * (oh * 3600 + om * 60)
    } else {
      return nil
    }
    guard i == bytes.count else { return nil }
    // Nanoseconds since 1970 fit Int64 from 1678 to 2262: accept 1900 to 2200.
    guard (1900...2200).contains(year) else { return nil }
    let seconds =
      Int64(day.ordinal) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds)
    return WallInstant(nanosecondsSince1970: seconds * 1_000_000_000 + fraction)
  }

  /// Formats an instant as UTC, `YYYY-MM-DDTHH:MM:SS.mmmZ`.
  static func format(_ instant: WallInstant) -> String {
    let ms = instant.millisecondsSince1970
    let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
    let millis = Int(ms - seconds * 1000)
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let rest = Int(seconds - days * 86_400)
    let day = Day(ordinal: Int32(clamping: days))
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    let msText = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
    return "\(day)T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60)).\(msText)Z"
  }
}
