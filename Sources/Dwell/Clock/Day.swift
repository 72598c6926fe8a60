/// A local calendar day, such as 2026-03-28, independent of any time zone.
///
/// Stored as the number of days since 1970-01-01 in the proleptic Gregorian calendar, so
/// consecutive days differ by one and streaks are simple arithmetic.
public struct Day: Comparable, Hashable, Sendable, CustomStringConvertible {
  /// Days since 1970-01-01.
  package var ordinal: Int32

  /// Creates a day from its ordinal (days since 1970-01-01).
  package init(ordinal: Int32) { self.ordinal = ordinal }

  /// Creates a day from a calendar date. Returns `nil` for a date that does not exist.
  public init?(year: Int, month: Int, day: Int) {
    guard (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year),
      (-9999...9999).contains(year)
    else { return nil }
    // Howard Hinnant's days_from_civil.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    ordinal = Int32(era * 146097 + doe - 719468)
  }

  /// Parses `YYYY-MM-DD`.
  package init?(_ text: some StringProtocol) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
    else { return nil }
    self.init(year: y, month: m, day: d)
  }

  /// Parses the ten bytes `YYYY-MM-DD`.
  init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
    var value = 0
    var fields: (Int, Int, Int) = (0, 0, 0)
    for (index, byte) in bytes.enumerated() where index != 4 && index != 7 {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
      switch index {
      case 3: fields.0 = value; value = 0
      case 6: fields.1 = value; value = 0
      case 9: fields.2 = value
      default: break
      }
    }
    self.init(year: fields.0, month: fields.1, day: fields.2)
  }

  /// The calendar date of this day.
  public var components: (year: Int, month: Int, day: Int) {
    let z = Int(ordinal) + 719468
    let era = (z >= 0 ? z : z - 146096) / 146097
    let doe = z - era * 146097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
  }

  /// The day's name, `YYYY-MM-DD`.
  public var description: String {
    let (y, m, d) = components
    return "\(Self.pad(y, 4))-\(Self.pad(m, 2))-\(Self.pad(d, 2))"
  }

  /// Day of the week, 1 = Monday ... 7 = Sunday (ISO 8601).
  public var weekday: Int { Int((Int64(ordinal) % 7 + 7 + 3) % 7) + 1 }

  /// The day `n` days later (earlier for a negative `n`), kept within the years
  /// -9999...9999 that ``init(year:month:day:)`` accepts: past either end, the end.
  public func adding(days n: Int32) -> Day {
    Day(ordinal: Int32(min(max(Int64(ordinal) + Int64(n), Self.firstOrdinal), Self.lastOrdinal)))
  }

  /// The ordinals of -9999-01-01 and 9999-12-31.
  static let firstOrdinal: Int64 = -4_371_587
  static let lastOrdinal: Int64 = 2_932_896

  public static func < (lhs: Day, rhs: Day) -> Bool { lhs.ordinal < rhs.ordinal }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  static func pad(_ value: Int, _ width: Int) -> String {
    let text = String(abs(value))
    return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
  }
}
