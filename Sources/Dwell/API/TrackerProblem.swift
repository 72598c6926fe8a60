/// A problem Dwell met and handled; the app keeps running and counting.
///
/// Delivered through ``Tracker/problems()`` and ``Tracker/onProblem(_:)``.
public enum TrackerProblem: Error, Sendable, CustomStringConvertible, Equatable {
  /// The store could not be opened or written; Dwell counts in memory. Also thrown by
  /// ``Tracker/erase()`` and ``Tracker/export(_:to:)`` while the store holding the user's
  /// history cannot be used.
  case storeUnavailable(String)
  /// The store was damaged; it was moved aside to this path and a fresh one started. The
  /// moved file stays until ``Tracker/erase()`` deletes it; ``Tracker/export(_:to:)`` does not read it.
  case storeMovedAside(String)
  /// The store was written by a newer Dwell; it was left untouched and Dwell counts in memory.
  case storeFromNewerVersion(String)
  /// The App Group container does not exist (check the entitlement).
  case noAppGroup(String)
  /// A commit failed; the data stays in memory and is retried.
  case commitFailed(String)
  /// The configuration did not validate: bad settings run at their defaults, and bad rules
  /// and levels are left out while the good ones run (see
  /// ``Tracker/Configuration/validate()``). Reported once, with every problem, when the
  /// tracker is made; also when the rules directory's pack (or the installed pack, at
  /// launch) has a rule whose id a Swift rule has: that rule of the pack is left out.
  case invalidConfiguration(ConfigurationError)
  /// A rule set was refused (an invalid rule, a repeated id, a pack that did not load or
  /// whose signature did not verify); the previous rules keep running.
  case rulesRefused(RuleError)
  /// ``Tracker/configureShared(_:)`` came after the shared tracker was made. After a first
  /// use of ``Tracker/shared`` (it started with the default configuration), the shared
  /// tracker takes this configuration, and its store adopts what the default store counted;
  /// after an earlier `configureShared`, the first configuration stays and this one is not
  /// used. Reported on each such call.
  case configuredTooLate
  /// UIKit called a method Dwell observes (`viewDidAppear(_:)`) off the main thread, which
  /// UIKit does not support: Dwell handled it on the main queue instead of trapping. Reported
  /// once per process; the text names the method and the controller's class.
  case offMainThread(String)

  public var description: String {
    switch self {
    case .storeUnavailable(let why): return "the store is unavailable, counting in memory: \(why)"
    case .storeMovedAside(let path): return "the store was damaged; it was moved to \(path) and a new one started"
    case .storeFromNewerVersion(let why): return "the store is from a newer Dwell, left untouched: \(why)"
    case .noAppGroup(let group): return "no App Group container '\(group)' (check the entitlement)"
    case .commitFailed(let why): return "a commit failed and will be retried: \(why)"
    case .invalidConfiguration(let error): return "\(error); running without what is wrong"
    case .rulesRefused(let error): return "the rules were refused, the previous ones keep running: \(error)"
    case .configuredTooLate:
      return "configureShared came after the shared tracker was made: after Tracker.shared it takes the "
        + "configuration and moves what it counted into its store; after an earlier configureShared, that one stays"
    case .offMainThread(let what):
      return "\(what) was called off the main thread; Dwell handled it on the main queue"
    }
  }
}
