extension Engine {
  /// How an engine counts. A value type: copy it, change what you need.
  package struct Configuration: Sendable {
    /// Accrual stops this long after the last touch, `active` or screen appearance.
    /// `nil` (the default) turns the idle timeout off.
    package var idleTimeout: Duration?
    /// An `active` starts a new session when at least this long has passed since the app
    /// last stopped being active. Default 30 minutes.
    package var sessionTimeout: Duration
    /// Accrued time is journaled (made crash-safe) this often while anything accrues, and folded
    /// into the store every few checkpoints; a crash loses at most this much. Default 2 seconds.
    package var checkpointInterval: Duration
    /// Scripted checks are evaluated whenever app time reaches a whole multiple of this.
    /// Default 1 second.
    package var evaluationTick: Duration
    /// The rules in force.
    package var rules: [Rule]
    /// Levels reached by points, lowest first.
    package var levels: [Level]
    /// Listeners (Lua plugins) that receive events and answer with actions.
    package var listeners: [any UsageListener]

    /// Creates a configuration; every parameter has the documented default.
    package init(
      idleTimeout: Duration? = nil, sessionTimeout: Duration = .seconds(1800),
      checkpointInterval: Duration = .seconds(2), evaluationTick: Duration = .seconds(1),
      rules: [Rule] = [], levels: [Level] = [], listeners: [any UsageListener] = []
    ) {
      self.idleTimeout = idleTimeout
      self.sessionTimeout = sessionTimeout
      self.checkpointInterval = checkpointInterval
      self.evaluationTick = evaluationTick
      self.rules = rules
      self.levels = levels
      self.listeners = listeners
    }
  }
}
