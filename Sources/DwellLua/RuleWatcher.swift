internal import Dispatch
public import Dwell
internal import Foundation

/// Watches a rules file or directory and reloads it when it changes (hot reload).
///
/// On a change it waits for the writes to settle (debounce), loads the whole new set into
/// a fresh Lua state, validates it, and only then hands it over; a set that fails to load
/// is reported and the previous one keeps running. It polls file sizes, dates and
/// contents, which works the same on every platform and with editors that save by
/// renaming.
///
/// ```swift
/// let watcher = RuleWatcher(path: "rules/") { result in
///   switch result {
///   case .success(let source): try? engine.setRules(source.rules)
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
    var fingerprint: [String: Int] = [:]
    var changedAt: ContinuousClock.Instant?
    var timer: TimerBox?
  }

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
    let initial = Self.fingerprint(path)
    state.withLock { $0.fingerprint = initial }
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

  /// Checks for a change now and, if the files changed, reloads at once (no debounce).
  /// Returns whether a reload was attempted. For tests and the harness.
  @discardableResult
  public func checkNow() -> Bool {
    let current = Self.fingerprint(path)
    let changed = state.withLock { state -> Bool in
      guard current != state.fingerprint else { return false }
      state.fingerprint = current
      state.changedAt = nil
      return true
    }
    if changed { reload() }
    return changed
  }

  private func poll(now: ContinuousClock.Instant) -> Bool {
    let current = Self.fingerprint(path)
    let due = state.withLock { state -> Bool in
      if current != state.fingerprint {
        state.fingerprint = current
        state.changedAt = now
        return false
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

  /// A summary of the watched files: path -> hash of the contents.
  public static func fingerprint(_ path: String) -> [String: Int] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [:] }
    var files = [path]
    if isDirectory.boolValue {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      files = names.filter { $0.hasSuffix(".lua") || $0.hasSuffix(".json") }.sorted().map { path + "/" + $0 }
    }
    var result: [String: Int] = [:]
    for file in files {
      var hasher = Hasher()
      hasher.combine(FileManager.default.contents(atPath: file))
      result[file] = hasher.finalize()
    }
    return result
  }
}
