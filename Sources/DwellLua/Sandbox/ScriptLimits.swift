// The limits a rule pack's scripts run under: time, memory, conversions and output.

/// Resource limits for one rule pack. The defaults suit rule packs; a host lowers or raises
/// them with `LuaRulePack(scripts:limits:)`. A script that hits one is stopped (a check or
/// plugin is disabled) or its extra output dropped, and one ``ScriptError`` names the file,
/// line and limit. See "The sandbox" in *Writing rules in Lua*.
public struct ScriptLimits: Sendable {
  /// Bytes the pack's state may hold, including what host functions create for it.
  /// Default 8 MiB.
  public var memory: Int
  /// Work one call into a script may do: virtual-machine instructions, plus the steps of
  /// pattern matching and the bytes or elements library functions go through. Default
  /// 1,000,000.
  public var instructionsPerCall: Int
  /// Work all the pack's checks and plugins together may do in one tick (one second of
  /// the clock). Default 10,000,000.
  public var instructionsPerTick: Int
  /// Host time one call may take, a backstop for work no count sees (comparing long
  /// strings). Default 200 ms.
  public var timePerCall: Duration
  /// Host time the whole pack may take in one tick. Default 500 ms.
  public var timePerTick: Duration
  /// Work loading the pack may do: all its files' top-level code, each rule or tier it
  /// defines counting ``workPerDefinition``. Counted, so a pack loads or not the
  /// same way on every machine and under any load. Default 25,000,000.
  public var instructionsToLoad: Int
  /// Host time loading's code may take (the files' top-level code and the definitions it
  /// makes), a backstop far above what ``instructionsToLoad`` allows on any device. Lua
  /// reading the files' text does not count here (``timeToRead``), so a pack whose code
  /// fits this limit loads the same way under any value of it. Default 10 s.
  public var timeToLoad: Duration
  /// Host time Lua's parser may take reading all the pack's files, a backstop of its own:
  /// generous (reading the largest file a pack may have, 4 MiB, takes well under a second),
  /// so that only a pack built to make reading slow meets it. Default 10 s.
  public var timeToRead: Duration = .seconds(10)
  /// Nested tables a value passed between Lua and the host may have. Default 32.
  public var valueDepth: Int
  /// Values (table entries, counted through every level) in one such value. Default 10,000.
  public var valueNodes: Int
  /// Awards, notifications, unlocks and publishes the pack may make in one tick. Default 100.
  public var actionsPerTick: Int
  /// Awards, notifications and unlocks the pack may make while it is loaded. Default 100,000.
  public var actionsTotal: Int
  /// Lines of `print` kept (the oldest go first), and characters kept of each. Default 200, 500.
  public var printLines: Int
  public var printLineLength: Int
  /// Characters kept of an error message, a notification's title or body, or an award's
  /// reason. Default 500.
  public var messageLength: Int
  /// The share of one processor core the pack's scripts may use, averaged over a minute of
  /// app use (the engine's monotonic clock): 0.01 is 1 %. Past it the pack's checks and
  /// plugins wait until its use falls back to half a minute's share; a pack that waits a
  /// minute of app use in all is disabled, with one ``ScriptError``. A call counts its host
  /// time (its thread's processor time, not the wait of a busy device), and at least 3 ns for
  /// each unit of work. Clamped to 0...1; 0 turns it off; not a
  /// number is the default. Default 0.01.
  public var sustainedShare: Double
  /// The app time ``sustainedShare`` is averaged over.
  package var sustainedWindow: Duration = .seconds(60)
  /// Host time the pack's scripts may take in all, for the tools (a replay or a simulated
  /// user, where app time runs far faster than a person's): past it the pack's checks and
  /// plugins are disabled, with one ``ScriptError``. nil: no bound (an app). With a bound, a
  /// call's host time is read on the coarse monotonic clock, not the thread's processor
  /// clock (a system call at every call of a simulated second).
  package var totalHostTime: Duration?

  /// Creates limits; the defaults suit rule packs.
  public init(
    memory: Int = 8 << 20, instructionsPerCall: Int = 1_000_000, instructionsPerTick: Int = 10_000_000,
    timePerCall: Duration = .milliseconds(200), timePerTick: Duration = .milliseconds(500),
    instructionsToLoad: Int = 25_000_000, timeToLoad: Duration = .seconds(10), valueDepth: Int = 32,
    valueNodes: Int = 10_000, actionsPerTick: Int = 100, actionsTotal: Int = 100_000, printLines: Int = 200,
    printLineLength: Int = 500, messageLength: Int = 500, sustainedShare: Double = 0.01
  ) {
    self.memory = memory
    self.instructionsPerCall = instructionsPerCall
    self.instructionsPerTick = instructionsPerTick
    self.timePerCall = timePerCall
    self.timePerTick = timePerTick
    self.instructionsToLoad = instructionsToLoad
    self.timeToLoad = timeToLoad
    self.valueDepth = valueDepth
    self.valueNodes = valueNodes
    self.actionsPerTick = actionsPerTick
    self.actionsTotal = actionsTotal
    self.printLines = printLines
    self.printLineLength = printLineLength
    self.messageLength = messageLength
    self.sustainedShare = sustainedShare
  }

  /// The limits the tools (`dwell replay`, `sim`, `test`, `balance`) run packs under: the
  /// defaults, with at most 10 s of host time for one replay, scenario or simulated user.
  package static var tools: ScriptLimits {
    var limits = ScriptLimits()
    limits.totalHostTime = .seconds(10)
    return limits
  }

  /// ``sustainedShare`` in millionths, clamped (not a number: the default).
  var sustainedPPM: Int64 {
    guard sustainedShare.isFinite else { return 10_000 }
    return Int64((min(max(sustainedShare, 0), 1) * 1_000_000).rounded())
  }

  /// Work a rule, achievement tier or level definition counts while loading (the host's
  /// parsing of it).
  public static let workPerDefinition = 500

  /// The nanoseconds of a duration, clamped to 0...`Int64.max`.
  static func nanoseconds(_ d: Duration) -> Int64 {
    let (seconds, attoseconds) = d.components
    guard seconds >= 0 else { return 0 }
    guard seconds < Int64.max / 1_000_000_000 - 1 else { return .max }
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }

  /// The milliseconds of a duration, at least 1.
  static func milliseconds(_ d: Duration) -> Int64 {
    max(1, d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000)
  }
}
