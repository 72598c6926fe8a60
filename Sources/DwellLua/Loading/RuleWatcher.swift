internal import Dispatch
public import Dwell
internal import Foundation

/// Watches a rules file or directory and reloads it when it changes (hot reload).
///
/// On a change it waits for the writes to settle (debounce), loads the whole new set into
/// a fresh Lua state, validates it, and only then hands it over; a set that fails to load
/// is reported and the previous one keeps running. It polls: each interval it compares
/// every file's size, modification time and inode (cheap), and reads the bytes for a
/// SHA-256 digest only when those change or every half second (a save that keeps the
/// length within one timestamp tick). A change means the digests differ, so `touch` does
/// not reload and an edit that keeps the length does. This works the same on every
/// platform and with editors that save by renaming.
///
/// A `Tracker` does this itself for `Configuration.rulesDirectory` (``LuaRuleFolder``).
/// By hand, give the tracker the whole pack: `setRules(_:pack:)` puts its rules, levels and
/// plugins in force together, as every route does (the rules directory, `dwell sim`):
///
/// ```swift
/// let watcher = RuleWatcher(path: "rules/") { result in
///   switch result {
///   case .success(let source): try? tracker.setRules(appRules, pack: source.pack)
///   case .failure(let error): print("rules not reloaded: \(error)")
///   }
/// }
/// watcher.start()
/// ```
public final class RuleWatcher: Sendable {
  /// The watched path.
  public let path: String
  private let limits: ScriptLimits
  private let interval: Duration
  private let debounce: Duration
  private let handler: @Sendable (Result<RuleSource, RuleError>) -> Void
  private let state = Locked<State>(State())
  private let queue = DispatchQueue(label: "dwell.rule-watcher")

  private struct State {
    var stamps: [String: FileStamp] = [:]
    var digests: [String: String] = [:]
    var verifiedAt = ContinuousClock.now
    var changedAt: ContinuousClock.Instant?
    var timer: TimerBox?
  }

  /// What `stat` says of a file: a change of any of these may be a change of content.
  struct FileStamp: Equatable {
    var size: Int
    var modified: Double
    var inode: Int
  }

  /// How often the digests are recomputed even when no stamp changed.
  static let verifyInterval: Duration = .milliseconds(500)

  /// Dispatch timers are thread-safe but not marked `Sendable` on every platform.
  private struct TimerBox: @unchecked Sendable {
    let source: any DispatchSourceTimer
  }

  /// Creates a watcher. `handler` runs on the watcher's queue (or the caller of
  /// ``checkNow()``) with each newly loaded set, or with the error that kept one out.
  public init(
    path: String, limits: ScriptLimits = ScriptLimits(), interval: Duration = .milliseconds(100),
    debounce: Duration = .milliseconds(50),
    handler: @escaping @Sendable (Result<RuleSource, RuleError>) -> Void
  ) {
    self.path = path
    self.limits = limits
    self.interval = interval
    self.debounce = debounce
    self.handler = handler
    let stamps = Self.stamps(path)
    let digests = Self.digests(stamps.keys)
    state.withLock {
      $0.stamps = stamps
      $0.digests = digests
    }
  }

  /// Starts polling in the background.
  public func start() {
    let timer = DispatchSource.makeTimerSource(queue: queue)
    let nanos = Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
    timer.schedule(deadline: .now() + .nanoseconds(nanos), repeating: .nanoseconds(max(nanos, 1_000_000)))
    timer.setEventHandler { [weak self] in _ = self?.poll(now: ContinuousClock.now) }
    let box = TimerBox(source: timer)
    state.withLock {
      $0.timer?.source.cancel()
      $0.timer = box
    }
    timer.resume()
  }

  /// Stops polling.
  public func stop() {
    state.withLock {
      $0.timer?.source.cancel()
      $0.timer = nil
    }
  }

  deinit { state.withLock { $0.timer?.source.cancel() } }

  /// Checks for a change now and, if the contents changed, reloads at once (no debounce).
  /// Reads every file's bytes. Returns whether a reload was attempted. For tests and the
  /// harness.
  @discardableResult
  public func checkNow() -> Bool {
    let stamps = Self.stamps(path)
    let digests = Self.digests(stamps.keys)
    let changed = state.withLock { state -> Bool in
      state.stamps = stamps
      state.verifiedAt = ContinuousClock.now
      guard digests != state.digests else { return false }
      state.digests = digests
      state.changedAt = nil
      return true
    }
    if changed { reload() }
    return changed
  }

  private func poll(now: ContinuousClock.Instant) -> Bool {
    let stamps = Self.stamps(path)
    let (known, verifiedAt) = state.withLock { ($0.stamps, $0.verifiedAt) }
    let digests = stamps != known || now - verifiedAt >= Self.verifyInterval ? Self.digests(stamps.keys) : nil
    let due = state.withLock { state -> Bool in
      state.stamps = stamps
      if let digests {
        state.verifiedAt = now
        if digests != state.digests {
          state.digests = digests
          state.changedAt = now
          return false
        }
      }
      guard let changedAt = state.changedAt, now - changedAt >= debounce else { return false }
      state.changedAt = nil
      return true
    }
    if due { reload() }
    return due
  }

  private func reload() {
    do {
      handler(.success(try RuleSource.load(path, limits: limits)))
    } catch {
      handler(.failure(error))
    }
  }

  /// The watched files (the path itself, or the `.lua` and `.json` files of a directory,
  /// hidden ones left out as the loader does) and their stamps.
  static func stamps(_ path: String) -> [String: FileStamp] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [:] }
    var files = [path]
    if isDirectory.boolValue {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      files = names.filter { ($0.hasSuffix(".lua") || $0.hasSuffix(".json")) && !$0.hasPrefix(".") }.map {
        path + "/" + $0
      }
    }
    var result: [String: FileStamp] = [:]
    for file in files {
      let attributes = (try? FileManager.default.attributesOfItem(atPath: file)) ?? [:]
      result[file] = FileStamp(
        size: (attributes[.size] as? NSNumber)?.intValue ?? -1,
        modified: (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0,
        inode: (attributes[.systemFileNumber] as? NSNumber)?.intValue ?? 0)
    }
    return result
  }

  /// SHA-256 of each file's bytes ("" for a file that cannot be read).
  static func digests(_ files: some Sequence<String>) -> [String: String] {
    var result: [String: String] = [:]
    for file in files {
      result[file] = (try? RuleFile.read(file)).map { SHA256.hex(of: Array($0)) } ?? ""
    }
    return result
  }
}
