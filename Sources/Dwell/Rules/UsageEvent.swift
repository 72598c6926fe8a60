/// Something that happened, as listeners (Lua plugins) see it.
package enum UsageEvent: Sendable, Equatable {
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
  /// The app recorded an action (``LifecycleEvent/action(_:count:)``): its name and count.
  case action(String, Int)
  /// The points total reached a new level: the level's name and the points total then.
  case levelUp(String, Int)
}
