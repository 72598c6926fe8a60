internal import Foundation

extension Tracker {
  /// Where the store lives.
  public enum StoreLocation: Sendable, Equatable {
    /// `Application Support/Dwell/usage.sqlite` (on Linux, `$XDG_DATA_HOME/dwell`).
    case applicationSupport
    /// The shared container of an App Group, so an app and its extensions share one store.
    case appGroup(String)
    /// A file of your choosing.
    case file(String)
    /// No file: everything is lost when the process ends (previews, tests).
    case inMemory
  }

  /// How a tracker counts and where it keeps the numbers. A value type with defaults.
  ///
  /// ```swift
  /// var configuration = Tracker.Configuration()
  /// configuration.rules = [Rule("bonus", when: .screenTime("Lessons", .minutes(30)))]
  /// let tracker = Tracker(configuration: configuration)
  /// ```
  public struct Configuration: Sendable {
    /// Where the store lives. Default: Application Support.
    public var storeLocation: StoreLocation = .applicationSupport
    /// Stop counting this long after the last touch. Default: off.
    public var idleTimeout: Duration?
    /// A new session starts after this long away. Default: 30 minutes.
    public var sessionTimeout: Duration = .seconds(1800)
    /// A crash loses at most this much. Default: 2 seconds.
    public var checkpointInterval: Duration = .seconds(2)
    /// The unlock rules.
    public var rules: [Rule] = []
    /// Levels from points.
    public var levels: [Level] = []
    /// Listeners such as a Lua rule pack with plugins.
    public var listeners: [any UsageListener] = []
    /// Raw visits older than this are deleted when the store opens; day totals and unlocks
    /// are kept for ever. Default: keep everything.
    public var visitRetention: Duration?

    /// Creates the default configuration.
    public init() {}

    var engine: Engine.Configuration {
      Engine.Configuration(
        idleTimeout: idleTimeout, sessionTimeout: sessionTimeout, checkpointInterval: checkpointInterval,
        rules: rules, levels: levels, listeners: listeners)
    }

    /// The store's path, creating its folder; `nil` for in-memory.
    func storePath() throws -> String? {
      let fileManager = FileManager.default
      var folder: URL
      switch storeLocation {
      case .inMemory: return nil
      case .file(let path): return path
      case .applicationSupport:
        #if canImport(Darwin)
          folder = try fileManager.url(
            for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
        #else
          let base = ProcessInfo.processInfo.environment["XDG_DATA_HOME"] ?? (NSHomeDirectory() + "/.local/share")
          folder = URL(fileURLWithPath: base)
        #endif
        folder.appendPathComponent(folderName)
      case .appGroup(let group):
        #if canImport(Darwin)
          guard let container = fileManager.containerURL(forSecurityApplicationGroupIdentifier: group) else {
            throw TrackerProblem.noAppGroup(group)
          }
          folder = container.appendingPathComponent(folderName)
        #else
          throw TrackerProblem.noAppGroup(group)
        #endif
      }
      try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
      #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        // Writable while the device is locked after the first unlock, so a background
        // commit never fails for data protection.
        try? fileManager.setAttributes(
          [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: folder.path)
      #endif
      return folder.appendingPathComponent("usage.sqlite").path
    }

    private var folderName: String {
      #if canImport(Darwin)
        return "Dwell"
      #else
        return "dwell"
      #endif
    }
  }
}

/// A problem Dwell met and handled; the app keeps running and counting.
///
/// Delivered through ``Tracker/problems()`` and ``Tracker/onProblem(_:)``.
public enum TrackerProblem: Error, Sendable, CustomStringConvertible, Equatable {
  /// The store could not be opened or written; Dwell counts in memory.
  case storeUnavailable(String)
  /// The store was damaged; it was moved aside to this path and a fresh one started.
  case storeMovedAside(String)
  /// The store was written by a newer Dwell; it was left untouched and Dwell counts in memory.
  case storeFromNewerVersion(String)
  /// The App Group container does not exist (check the entitlement).
  case noAppGroup(String)
  /// A commit failed; the data stays in memory and is retried.
  case commitFailed(String)

  public var description: String {
    switch self {
    case .storeUnavailable(let why): return "the store is unavailable, counting in memory: \(why)"
    case .storeMovedAside(let path): return "the store was damaged; it was moved to \(path) and a new one started"
    case .storeFromNewerVersion(let why): return "the store is from a newer Dwell, left untouched: \(why)"
    case .noAppGroup(let group): return "no App Group container '\(group)' (check the entitlement)"
    case .commitFailed(let why): return "a commit failed and will be retried: \(why)"
    }
  }
}
