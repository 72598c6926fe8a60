/// When a rule unlocks: the declarative conditions of <doc:Accounting>, or a scripted check.
///
/// Every metric only grows, so a condition that holds keeps holding, and the engine can
/// compute the exact instant at which it starts to hold.
///
/// ```swift
/// let committed: Condition = .all([.sessions(2), .screenTime("Lessons", .minutes(30))])
/// ```
public indirect enum Condition: Sendable, CustomStringConvertible {
  /// App time reaches the duration.
  case appTime(Duration)
  /// Time on the named screen reaches the duration.
  case screenTime(String, Duration)
  /// The named screen has been visited at least this many times.
  case visits(String, Int)
  /// At least this many sessions.
  case sessions(Int)
  /// At least `count` days reached `minimumPerDay` (of the app, or of `screen`).
  /// Without a minimum, any time above zero counts.
  case activeDays(Int, minimumPerDay: Duration? = nil, screen: String? = nil)
  /// The longest run of consecutive qualifying days reaches `count`.
  case streak(Int, minimumPerDay: Duration? = nil, screen: String? = nil)
  /// The named action (``LifecycleEvent/action(_:count:)``) was recorded at least this
  /// many times, counts added up.
  case actions(String, Int)
  /// At least `count` days on which the named action was recorded at least `minimumPerDay`
  /// times (a count, not a duration).
  case actionDays(Int, action: String, minimumPerDay: Int = 1)
  /// The longest run of consecutive days on which the named action was recorded at least
  /// `minimumPerDay` times reaches `count`.
  case actionStreak(Int, action: String, minimumPerDay: Int = 1)
  /// The condition, a cumulative figure (not a streak), counted within one calendar period:
  /// it holds from the first instant at which any single period's figure reaches the
  /// threshold (`.within(.day, .appTime(.hours(1)))`: an hour in one day). See <doc:Accounting>.
  case within(CalendarPeriod, Condition)
  /// The ordinary (not recurring) rule with this id has unlocked: a gate, with ``all(_:)``.
  case unlocked(String)
  /// The points total reaches this many: the points of the unlocked rules and of recurring
  /// earnings, and those plugins awarded. A rule's own points never count toward it (they
  /// come once it holds). See <doc:Accounting>.
  case points(Int)
  /// The named level (``Level``) is reached: the points total reaches the level's points,
  /// as ``points(_:)``. A Swift rule names a level of the configuration's `levels`; a rule
  /// pack's rule may name the pack's too. Another name makes the rule invalid.
  case level(String)
  /// Every sub-condition holds (unlocks at the latest of them).
  case all([Condition])
  /// Some sub-condition holds (unlocks at the earliest of them).
  case any([Condition])
  /// A scripted check (a Lua rule's `check` function, made by its rule pack), evaluated
  /// after every event and at every tick of app time.
  case check(ScriptedCheck)

  /// A designer-readable sentence: "30 min in Lessons".
  public var description: String {
    switch self {
    case .appTime(let d): return "\(Self.words(d)) in the app"
    case .screenTime(let s, let d): return "\(Self.words(d)) in \(ScreenGroup.words(s))"
    case .visits(let s, let n): return "\(n) visit\(n == 1 ? "" : "s") to \(ScreenGroup.words(s))"
    case .sessions(let n): return "\(n) session\(n == 1 ? "" : "s")"
    case .activeDays(let n, let minimum, let screen):
      return "\(n) day\(n == 1 ? "" : "s")\(Self.dayQualifier(minimum, screen))"
    case .streak(let n, let minimum, let screen):
      return "\(n) days in a row\(Self.dayQualifier(minimum, screen))"
    case .actions(let name, let n): return "\(n) × \(name)"
    case .actionDays(let n, let name, let minimum):
      return "\(n) day\(n == 1 ? "" : "s") with \(name)\(minimum > 1 ? " at least \(minimum) times" : "")"
    case .actionStreak(let n, let name, let minimum):
      return "\(n) days in a row with \(name)\(minimum > 1 ? " at least \(minimum) times" : "")"
    case .within(let period, let inner): return "\(inner) in one \(period.name)"
    case .unlocked(let id): return "'\(id)' unlocked"
    case .points(let n): return "\(n) point\(n == 1 ? "" : "s")"
    case .level(let name): return "level \(name) reached"
    case .all(let parts): return parts.map(\.description).joined(separator: " and ")
    case .any(let parts): return "(" + parts.map(\.description).joined(separator: " or ") + ")"
    case .check: return "a scripted check"
    }
  }

  /// " with at least 2 min in Lessons": what makes a day count, in words.
  static func dayQualifier(
    _ minimum: Duration?, _ screen: String?, atLeast: String = "at least ", none: String = " of use"
  )
    -> String
  {
    switch (minimum, screen) {
    case (nil, nil): return none
    case (nil, let s?): return " with time in \(ScreenGroup.words(s))"
    case (let m?, nil): return " with \(atLeast)\(words(m))"
    case (let m?, let s?): return " with \(atLeast)\(words(m)) in \(ScreenGroup.words(s))"
    }
  }

  /// A duration in the unit of `like`, rounded down: "18 min" of "30 min", "2.5 h" of "5 h".
  static func words(_ duration: Duration, like reference: Duration) -> String {
    let seconds = duration.seconds
    let whole = reference.seconds
    if whole >= 3600, whole.truncatingRemainder(dividingBy: 3600) == 0, seconds >= 3600 {
      let hours = (seconds / 360).rounded(.down) / 10
      return hours == hours.rounded() ? "\(whole: hours) h" : "\(hours) h"
    }
    if whole >= 60, whole.truncatingRemainder(dividingBy: 60) == 0 { return "\(whole: seconds / 60) min" }
    return "\(whole: seconds) s"
  }

  /// "90 s", "30 min", "1 h 30 min".
  static func words(_ duration: Duration) -> String {
    let total = duration.seconds
    if total < 60 { return total == total.rounded() ? "\(whole: total) s" : "\(total) s" }
    // A Duration holds up to 2^63 s, beyond Int's whole seconds as a Double: those are said in hours.
    guard let seconds = Int(exactly: total.rounded()) else { return "\(whole: (total / 3600).rounded(.down)) h" }
    let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
    var parts: [String] = []
    if hours > 0 { parts.append("\(hours) h") }
    if minutes > 0 { parts.append("\(minutes) min") }
    if rest > 0 { parts.append("\(rest) s") }
    return parts.joined(separator: " ")
  }
}

extension DefaultStringInterpolation {
  /// A whole number of a Double, without a trap for one beyond `Int`'s range ("1e+20").
  mutating func appendInterpolation(whole value: Double) {
    if let exact = Int(exactly: value.rounded(.towardZero)) {
      appendInterpolation(exact)
    } else {
      appendInterpolation(value)
    }
  }
}
