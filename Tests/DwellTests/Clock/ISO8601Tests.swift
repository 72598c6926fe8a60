import Testing

@testable import Dwell

/// ISO 8601 instants, parsed and formatted exactly, to the nanosecond.
@Suite struct ISO8601Tests {
  /// 2026-05-04T08:00:00Z in nanoseconds since 1970.
  static let may4 = Int64(1_777_881_600) * 1_000_000_000

  @Test(arguments: [
    ("2026-05-04T08:00:00Z", may4),
    ("2026-05-04t08:00:00z", may4),
    ("2026-05-04T10:00:00+02:00", may4),
    ("2026-05-04T10:00:00+0200", may4),
    ("2026-05-04T02:30:00-05:30", may4),
    ("2026-05-04T08:00:00.5Z", may4 + 500_000_000),
    ("2026-05-04T08:00:00.123456789Z", may4 + 123_456_789),
    ("2026-05-04T08:00:00.1234567891Z", may4 + 123_456_789),  // digits past the ninth are dropped
    ("2026-05-04T08:00:60Z", may4 + 60_000_000_000),  // a leap second reads as the next minute
    ("1970-01-01T00:00:00Z", 0),
    ("1969-12-31T23:59:59.999Z", -1_000_000),
    ("2024-02-29T00:00:00Z", Int64(1_709_164_800) * 1_000_000_000),
  ])
  func parses(text: String, nanoseconds: Int64) {
    #expect(ISO8601.parse(text)?.nanosecondsSince1970 == nanoseconds)
  }

  @Test(arguments: [
    "", "2026-05-04", "2026-05-04T08:00:00", "2026-05-04 08:00:00Z", "2026-13-01T00:00:00Z",
    "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-05-04T24:00:00Z", "2026-05-04T08:60:00Z",
    "2026-05-04T08:00:61Z", "2026-05-04T08:00:00.Z", "2026-05-04T08:00:00+24:00", "2026-05-04T08:00:00+02",
    "2026-05-04T08:00:00Zjunk", "1899-12-31T23:59:59Z", "2201-01-01T00:00:00Z", "+2026-05-04T08:00:00Z",
    "2026-5-4T8:0:0Z", "２０２６-05-04T08:00:00Z",
  ])
  func rejects(text: String) {
    #expect(ISO8601.parse(text) == nil)
  }

  /// Formatting writes UTC to the millisecond (rounding down, also before 1970), and
  /// parsing reads it back.
  @Test(arguments: [
    (may4 + 123_999_999, "2026-05-04T08:00:00.123Z"),
    (0, "1970-01-01T00:00:00.000Z"),
    (-1, "1969-12-31T23:59:59.999Z"),
    (-86_400_000_000_000, "1969-12-31T00:00:00.000Z"),
    (Int64(4_102_444_799_999) * 1_000_000, "2099-12-31T23:59:59.999Z"),
  ])
  func formats(nanoseconds: Int64, text: String) {
    let instant = WallInstant(nanosecondsSince1970: nanoseconds)
    #expect(ISO8601.format(instant) == text)
    #expect(ISO8601.parse(text)?.millisecondsSince1970 == instant.millisecondsSince1970)
  }
}
