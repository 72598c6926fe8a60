public import Foundation

extension Tracker {
  /// Where the store lives.
  public enum StoreLocation: Sendable, Equatable {
    /// `Application Support/Dwell/usage.sqlite` (on Linux, `$XDG_DATA_HOME/dwell`).
    case applicationSupport
    /// The shared container of an App Group, so an app and its extensions share one store.
    case appGroup(String)
    /// A file of your choosing, by path (from a file URL: `.file(url.path)`).
    case file(String)
    /// No file: everything is lost when the process ends (previews, tests).
    case inMemory
  }

  /// How a tracker counts and where it keeps the numbers: timeouts, the checkpoint interval,
  /// rules and levels (what the tracker's engine is made with), plus where the
  /// store lives, how long raw visits are kept and where rule packs come from.
  ///
  /// ```swift
  /// var configuration = Tracker.Configuration()
  /// configuration.rules = [Rule("bonus", when: .screenTime("Lessons", .minutes(30)))]
  /// configuration.idleTimeout = .seconds(60)
  /// let tracker = Tracker(configuration: configuration)
  /// ```
  public struct Configuration: Sendable {
    /// Where the store lives. Default: Application Support.
    public var storeLocation: StoreLocation = .applicationSupport
    /// Raw visits older than this are deleted when the store opens; day totals and unlocks
    /// are kept for ever. Default: keep everything.
    public var visitRetention: Duration?
    /// What the engine is made with: the settings below read and write it.
    package var engine = Engine.Configuration()

    /// Accrual stops this long after the last touch, `active` or screen appearance.
    /// `nil` (the default) turns the idle timeout off.
    public var idleTimeout: Duration? {
      get { engine.idleTimeout }
      set { engine.idleTimeout = newValue }
    }
    /// An `active` starts a new session when at least this long has passed since the app
    /// last stopped being active. Default 30 minutes.
    public var sessionTimeout: Duration {
      get { engine.sessionTimeout }
      set { engine.sessionTimeout = newValue }
    }
    /// Accrued time is made crash-safe this often while anything accrues; a crash loses at
    /// most this much. Default 2 seconds.
    public var checkpointInterval: Duration {
      get { engine.checkpointInterval }
      set { engine.checkpointInterval = newValue }
    }
    /// Scripted checks are evaluated whenever app time reaches a whole multiple of this.
    /// Default 1 second.
    package var evaluationTick: Duration {
      get { engine.evaluationTick }
      set { engine.evaluationTick = newValue }
    }
    /// The rules in force at launch (``Tracker/setRules(_:pack:)`` changes them later).
    public var rules: [Rule] {
      get { engine.rules }
      set { engine.rules = newValue }
    }
    /// Levels reached by points, lowest first.
    public var levels: [Level] {
      get { engine.levels }
      set { engine.levels = newValue }
    }
    /// Listeners that receive events and answer with actions (the package's seam; apps put
    /// a Lua pack's plugins in force with ``Tracker/setRules(_:pack:)``).
    package var listeners: [any UsageListener] {
      get { engine.listeners }
      set { engine.listeners = newValue }
    }
    /// A rule pack loaded when the tracker starts and reloaded whenever it changes; apps
    /// set it as `configuration.rulesDirectory = LuaRuleFolder(url)` (DwellLua). A version
    /// that fails to load is reported as ``TrackerProblem/rulesRefused(_:)`` and the
    /// previous one keeps running.
    package var rulePackSource: (any RulePackSource)?
    /// Ed25519 public keys (32 raw bytes each) whose signatures
    /// ``Tracker/installRulePack(_:signature:)`` accepts. Default: none (every pack is refused).
    public var trustedPackKeys: [Data] = []
    /// The version of the pack in the app's rules directory (`rulesDirectory`, DwellLua),
    /// which the app raises when it ships newer rules. An installed pack
    /// (``Tracker/installRulePack(_:signature:)``) is in force over the rules directory,
    /// and the directory's reloads leave it in force, while its version is at least this
    /// one; once this is greater (the app was updated with newer rules), the rules
    /// directory is in force at launch, the installed pack is deleted, and only a pack of
    /// at least this version installs. Default 0; a negative version counts as 0.
    public var bundledPackVersion = 0
    /// Turns the scripts of an installed pack into a pack; apps set it as
    /// `configuration.packLoader = LuaPackLoader()` (DwellLua).
    package var rulePackLoader: (any RulePackLoader)?

    /// Creates the default configuration.
    public init() {}

    /// Checks every setting and rule; call it where the configuration is made to catch
    /// mistakes in development. With a rules directory (`rulesDirectory`, DwellLua) it loads
    /// the pack, which is disk I/O and runs its scripts, and reports what would keep it out
    /// at launch: a folder that is missing or does not load (the first error of its scripts,
    /// with file and line: the loader stops there), a rule of the pack that is invalid, an
    /// id shared by a Swift rule and a rule of the pack, a level defined twice.
    /// A tracker given a configuration that does not validate still runs and reports it
    /// once, as ``TrackerProblem/invalidConfiguration(_:)`` listing every problem: each bad
    /// setting runs at its documented default (an `idleTimeout` or `checkpointInterval` of
    /// zero runs as if unset), a bad rule or level is left out and the others kept (of
    /// rules sharing an id, the first declared is kept), and a rule of the rules directory's
    /// pack whose id a Swift rule has is left out, the Swift rule and the rest of the pack
    /// kept. A rules directory that does not load is reported as
    /// ``TrackerProblem/rulesRefused(_:)``. An empty store path or App Group counts in
    /// memory (``TrackerProblem/storeUnavailable(_:)``, ``TrackerProblem/noAppGroup(_:)``).
    ///
    /// ```swift
    /// try configuration.validate()   // in development: every problem at once
    /// ```
    /// - Throws: ``ConfigurationError`` listing every problem.
    public func validate() throws(ConfigurationError) {
      let found = problems + rulePackProblems
      if !found.isEmpty { throw ConfigurationError(problems: found) }
    }

    /// What would keep the rule pack source's pack out at launch: it does not load, or
    /// its rules and levels, with the configuration's, have problems the configuration
    /// alone has not. Loads the pack (disk I/O, scripts): only ``validate()`` asks.
    var rulePackProblems: [ConfigurationError.Problem] {
      guard let source = rulePackSource else { return [] }
      let pack: any RulePack
      do {
        pack = try source.load()
      } catch {
        return [.setting("rulesDirectory", "\(error)")]
      }
      var combined = engine
      combined.rules += pack.rules
      combined.levels += pack.levels
      var added = combined.problems
      for problem in engine.problems {
        if let index = added.firstIndex(of: problem) { added.remove(at: index) }
      }
      return added
    }

    var problems: [ConfigurationError.Problem] {
      var problems: [ConfigurationError.Problem] = []
      switch storeLocation {
      case .file(let path) where path.isEmpty: problems.append(.setting("storeLocation", "the path is empty"))
      case .appGroup(let group) where group.isEmpty: problems.append(.setting("storeLocation", "the group is empty"))
      default: break
      }
      for (index, key) in trustedPackKeys.enumerated() where key.count != PackSignature.keyLength {
        problems.append(.setting("trustedPackKeys", "key \(index + 1) has \(key.count) bytes, not 32"))
      }
      if !trustedPackKeys.isEmpty, rulePackLoader == nil {
        problems.append(.setting("packLoader", "trusted keys are set but no loader (DwellLua.LuaPackLoader())"))
      }
      if let retention = visitRetention, retention <= .zero {
        problems.append(.setting("visitRetention", "must be longer than zero, not \(retention)"))
      }
      return problems + engine.problems
    }

    /// What a tracker runs with: every setting ``validate()`` refuses back at its documented
    /// default (`Engine.Configuration.repaired`; a `visitRetention` of zero or less keeps
    /// everything; a trusted key that is not 32 bytes is left out), the good rules and
    /// levels kept. The store location is the exception: an empty path or App Group is not
    /// replaced by Application Support, where a second history would start; Dwell counts
    /// in memory and reports ``TrackerProblem/storeUnavailable(_:)`` or
    /// ``TrackerProblem/noAppGroup(_:)``.
    var repaired: Configuration {
      var repaired = self
      repaired.engine = engine.repaired
      if let retention = visitRetention, retention <= .zero { repaired.visitRetention = nil }
      repaired.trustedPackKeys = trustedPackKeys.filter { $0.count == PackSignature.keyLength }
      return repaired
    }

    /// The store's path, creating its folder; `nil` for in-memory.
    func storePath() throws -> String? {
      let fileManager = FileManager.default
      var folder: URL
      switch storeLocation {
      case .inMemory: return nil
      case .file(let path) where path.isEmpty:
        // SQLite would open a temporary database, and nothing would be kept.
        throw TrackerProblem.storeUnavailable("the store's path is empty; counting in memory")
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
