// A figure a plugin's tick call read, with its value: what a resting tick handler waits to see change.
internal import Dwell

/// One read of a usage figure during a call, and the value it read. A tick handler at rest
/// (``LuaRuntime``'s `settle`) is called again only once one of the figures its last call
/// read differs: fed the same figures and the same state, it would do the same nothing.
struct UsageRead: Equatable {
  enum Figure: Equatable {
    /// `u.app.seconds`, `u.today_seconds` / `u.app.today_seconds`, `u.hour`,
    /// `u.app.active_days`, `.longest_streak`, `.current_streak`.
    case appSeconds, todaySeconds, hour, activeDays, longestStreak, currentStreak
    /// `u.screen(name).seconds`, `.visits`, `.today_seconds`.
    case screenSeconds(String), screenVisits(String), screenToday(String)
    /// `u.action(name).count`, `.today_count`.
    case actionCount(String), actionToday(String)
  }

  var figure: Figure
  var value: Double

  /// The figure a key of the `u` table or of `u.app` names (`nil`: one that changes only
  /// with events, or none).
  static func figure(ofKey key: UnsafeRawBufferPointer) -> Figure? {
    switch String(decoding: key, as: UTF8.self) {
    case "seconds": return .appSeconds
    case "today_seconds": return .todaySeconds
    case "hour": return .hour
    case "active_days": return .activeDays
    case "longest_streak": return .longestStreak
    case "current_streak": return .currentStreak
    default: return nil
    }
  }

  /// Whether `usage` still shows the value read.
  func holds(in usage: UsageFigures) -> Bool { Self.value(of: figure, in: usage) == value }

  static func value(of figure: Figure, in usage: UsageFigures) -> Double {
    switch figure {
    case .appSeconds: return usage.appSeconds
    case .todaySeconds: return usage.todaySeconds
    case .hour: return Double(usage.hour)
    case .activeDays: return Double(usage.activeDays)
    case .longestStreak: return Double(usage.longestStreak)
    case .currentStreak: return Double(usage.currentStreak)
    case .screenSeconds(let name): return usage.screen(name).seconds
    case .screenVisits(let name): return Double(usage.screen(name).visits)
    case .screenToday(let name): return usage.screen(name).todaySeconds
    case .actionCount(let name): return Double(usage.action(name).count)
    case .actionToday(let name): return Double(usage.action(name).todayCount)
    }
  }
}
