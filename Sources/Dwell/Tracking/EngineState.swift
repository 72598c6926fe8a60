/// What an engine counts and decides, behind its state lock: the accountant, the rule book,
/// the listeners in force, timers, and what waits for the next checkpoint.
struct EngineState: ~Copyable {
  var accountant: Accountant
  var book: RuleBook
  /// The last wake-up found, and the cursor and accountant revision it was found at;
  /// `nil` after the rules are evaluated (the book may have changed).
  var knownWake: (cursor: Int64, revision: UInt64, at: Int64?)?
  var spare: [StampedEvent] = []
  var wake: (at: Int64, work: any ScheduledWork)?
  var checkpoint: (any ScheduledWork)?
  var stopped = false
  /// The accountant's revision at the last journal write.
  var journaled: UInt64 = 0
  /// When the last fold into SQLite happened.
  var lastFold: Int64
  /// Notifications waiting for the checkpoint that persists what came before them.
  var notifications: [UsageNotification] = []
  /// Periodic checkpoints so far (for tests).
  var periodicCheckpoints = 0
  /// Listeners in force (replaced on hot reload).
  var listeners: [any UsageListener]
  /// A fold was asked for because of a flood of visits and has not run yet.
  var foldRequested = false
}
