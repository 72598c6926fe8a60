/// Something that happened, as listeners (Lua plugins) see it.
public enum UsageEvent: Sendable, Equatable {
  /// A screen name became visible (a new visit).
  case screenEntered(String)
  /// A visit ended.
  case screenLeft(String)
  /// An `active` started a new session.
  case sessionStarted
  /// The app stopped being active (the session may still resume).
  case paused
  /// Time was first credited to a new local day.
  case dayStarted(Day)
  /// A rule unlocked.
  case unlocked(String)
  /// App time reached a whole multiple of the evaluation tick.
  case tick
}

/// A message a plugin posts for the host app to show ("show the 'Night owl' badge").
public struct UsageNotification: Sendable, Equatable {
  /// Who posted it.
  public var source: String
  /// A short title.
  public var title: String
  /// Optional body text.
  public var body: String?
  /// When, on the monotonic clock.
  public var instant: MonotonicInstant

  /// Creates a notification.
  public init(source: String, title: String, body: String? = nil, instant: MonotonicInstant) {
    self.source = source
    self.title = title
    self.body = body
    self.instant = instant
  }
}

/// What a listener asks the engine to do in response to an event.
public enum UsageAction: Sendable, Equatable {
  /// Adds points to the ledger (persisted).
  case award(points: Int, reason: String, source: String)
  /// Unlocks the rule with this id now (persisted; sticky).
  case unlock(String)
  /// Delivers a notification to the host app (after the actions before it are persisted).
  case notify(UsageNotification)
  /// Replaces a listener's persistent state (a small text blob, at most 64 KiB).
  case saveState(source: String, data: String)
}

/// Receives engine events on the engine's processing context and answers with actions.
///
/// The Lua plugin runtime implements this. Handlers must be quick: they run while the
/// engine processes events (never on the caller's thread).
public protocol UsageListener: Sendable {
  /// Whether the listener wants ``UsageEvent/tick`` (costs a wake-up per tick of app time).
  var wantsTicks: Bool { get }
  /// Called once when the engine starts, with the states saved by earlier runs.
  func restore(states: [String: String])
  /// Handles an event; returns what to do.
  func receive(_ event: UsageEvent, usage: UsageView) -> [UsageAction]
}
