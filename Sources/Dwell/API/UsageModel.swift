#if canImport(Observation)
  public import Observation

  /// An observable view of a tracker for SwiftUI: it answers every query of
  /// ``UsageQueries``, and views that ask update as time accrues (every second by default,
  /// while the app is active: in the background or inactive nothing accrues, and after one
  /// last refresh the views are left alone) and as rules unlock.
  ///
  /// ```swift
  /// struct LessonsBadge: View {
  ///   @State private var usage = UsageModel(tracker: .shared)
  ///   var body: some View {
  ///     Text("Today: \(usage.time(.screen("Lessons"), in: .today).formatted(.units()))")
  ///     if usage.isUnlocked("bonus-level") { BonusLevelLink() }
  ///   }
  /// }
  /// ```
  @MainActor @Observable
  public final class UsageModel {
    /// The tracker it reads.
    public let tracker: Tracker
    /// The most recent unlock, for a celebration banner.
    public private(set) var lastUnlock: UnlockRecord?
    /// The most recent plugin notification.
    public private(set) var lastNotification: UsageNotification?
    /// Bumped on every refresh; reading any figure makes a view depend on it.
    package private(set) var revision = 0
    @ObservationIgnored private var tasks: [Task<Void, Never>] = []
    /// Whether the app was active at the previous tick.
    @ObservationIgnored private var wasActive = false

    /// Creates a model that refreshes every `interval` while the app is active, and on every
    /// unlock. An interval under 0.05 s (zero or negative included) is taken as 0.05 s: a
    /// shorter one would refresh views in a busy loop.
    public init(tracker: Tracker, refreshEvery interval: Duration = .seconds(1)) {
      self.tracker = tracker
      let interval = Self.refreshInterval(interval)
      tasks.append(
        Task { [weak self] in
          while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            self?.tick()
          }
        })
      // The streams are made here, not in the tasks: a task starts later, and an unlock in
      // between would be missed.
      let unlocks = tracker.unlocks()
      let notifications = tracker.notifications()
      tasks.append(
        Task { [weak self] in
          for await unlock in unlocks {
            self?.lastUnlock = unlock
            self?.refresh()
          }
        })
      tasks.append(
        Task { [weak self] in
          for await note in notifications { self?.lastNotification = note }
        })
    }

    deinit { for task in tasks { task.cancel() } }

    /// The shortest refresh interval: `interval`, or 0.05 s if it is shorter.
    package nonisolated static func refreshInterval(_ interval: Duration) -> Duration {
      max(interval, .milliseconds(50))
    }

    /// Re-reads the figures now (views update).
    public func refresh() { revision &+= 1 }

    /// One interval of the model's clock: a refresh while the app is active (time accrues),
    /// and one more at the tick that finds it no longer active (the figures it ended with);
    /// none after that, so views that read the model are not redrawn while nothing changes.
    package func tick() {
      let active = tracker.engine?.isActive ?? false
      if active || wasActive { refresh() }
      wasActive = active
    }

    /// The tracker's source. Every query reads it, which makes a view that asks depend on
    /// the model's revision: the view updates on each refresh.
    public var usageSource: UsageSource {
      _ = revision
      return tracker.usageSource
    }
  }

  /// Queries on the main actor, where the model lives.
  extension UsageModel: @MainActor UsageQueries {}
#endif
