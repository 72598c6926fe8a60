internal import Foundation

/// The report as the JSON document of <doc:Accounting> (`dwell replay --json`,
/// `dwell report --json`), written by `JSONEncoder` from a `Codable` mirror of its shape.
extension UsageReport {
  /// How unlock instants are written in JSON.
  package enum UnlockTime: Sendable {
    /// Seconds on the monotonic timeline (a replayed trace's `t`).
    case monotonicSeconds
    /// ISO 8601 wall-clock time.
    case wallClock
  }

  /// The report as the JSON of <doc:Accounting>, keys sorted, seconds to the millisecond.
  ///
  /// ```swift
  /// print(report.json(includeUnlocks: true))  // {"app": {"activeDays": 1, ...}, ...}
  /// ```
  ///
  /// - Parameters:
  ///   - includeUnlocks: Whether to write `unlocks` (when rules were given).
  ///   - unlockTime: Unlock instants as monotonic seconds or ISO 8601 wall-clock times.
  ///   - pretty: Indented, one member a line.
  ///   - recurring: The ids of the recurring rules in force: the report then has `recurring`,
  ///     each rule's earnings (an empty list for one never earned).
  package func json(
    includeUnlocks: Bool, unlockTime: UnlockTime = .monotonicSeconds, pretty: Bool = true, recurring: [String] = []
  ) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    var document = ReportDocument(self, unlocks: includeUnlocks ? unlockTime : nil)
    document.addActions(self, recurring: recurring, time: unlockTime)
    // Every value is a string, an integer or a finite number: encoding cannot fail.
    guard let data = try? encoder.encode(document) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }
}

/// The JSON document of a report: the shape <doc:Accounting> gives it.
private struct ReportDocument: Encodable {
  struct App: Encodable {
    var seconds: Seconds
    var sessions: Int
    var activeDays: Int
    var longestStreak: Int
    var days: [String: Seconds]
  }

  struct Screen: Encodable {
    var seconds: Seconds
    var visits: Int
    var days: [String: Seconds]
  }

  /// An unlock instant: seconds on the trace's timeline, or an ISO 8601 time.
  enum Instant: Encodable {
    case seconds(Seconds)
    case wall(String)

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .seconds(let seconds): try container.encode(seconds)
      case .wall(let text): try container.encode(text)
      }
    }
  }

  var app: App
  var screens: [String: Screen]
  /// Absent (not `null`) when the report is written without unlocks.
  var unlocks: [String: Instant]?
  /// Absent when no action was recorded.
  var actions: [String: Action]?
  /// Absent when no rule in force is recurring.
  var recurring: [String: [Instant]]?

  struct Action: Encodable {
    var count: Int
    var days: [String: Int]
  }

  mutating func addActions(_ report: UsageReport, recurring ids: [String], time: UsageReport.UnlockTime) {
    if !report.actions.isEmpty {
      actions = report.actions.mapValues { action in
        Action(
          count: action.count,
          days: Dictionary(uniqueKeysWithValues: action.days.map { ($0.key.description, $0.value) }))
      }
    }
    guard !ids.isEmpty else { return }
    var lists: [String: [Instant]] = [:]
    for id in ids { lists[id] = [] }
    for earning in report.earnings.sorted(by: { $0.mono.nanoseconds < $1.mono.nanoseconds })
    where lists[earning.rule] != nil {
      switch time {
      case .monotonicSeconds:
        lists[earning.rule, default: []].append(.seconds(Seconds(.nanoseconds(earning.mono.nanoseconds))))
      case .wallClock: lists[earning.rule, default: []].append(.wall(ISO8601.format(earning.wall)))
      }
    }
    recurring = lists
  }

  init(_ report: UsageReport, unlocks time: UsageReport.UnlockTime?) {
    func days(_ days: [Day: Duration]) -> [String: Seconds] {
      Dictionary(uniqueKeysWithValues: days.map { ($0.key.description, Seconds($0.value)) })
    }
    app = App(
      seconds: Seconds(report.app.time), sessions: report.sessions, activeDays: report.activeDays,
      longestStreak: report.longestStreak, days: days(report.app.days))
    screens = report.screens.mapValues { Screen(seconds: Seconds($0.time), visits: $0.visits, days: days($0.days)) }
    unlocks = time.map { time in
      report.unlocks.mapValues { record in
        switch time {
        case .monotonicSeconds: return .seconds(Seconds(.nanoseconds(record.mono.nanoseconds)))
        case .wallClock: return .wall(ISO8601.format(record.wall))
        }
      }
    }
  }
}

/// A duration written as a number of seconds, rounded to the millisecond (half away from zero).
private struct Seconds: Encodable {
  var milliseconds: Int64

  init(_ duration: Duration) {
    milliseconds = JSONWriter.milliseconds(duration.nanoseconds)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(Double(milliseconds) / 1000)
  }
}
