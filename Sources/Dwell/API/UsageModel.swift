#if canImport(Observation)
  public import Observation

  /// An observable view of a tracker for SwiftUI: views that read it update as time
  /// accrues (every second by default) and as rules unlock.
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
    public private(set) var revision = 0
    @ObservationIgnored private var tasks: [Task<Void, Never>] = []

    /// Creates a model that refreshes every `interval` and on every unlock.
    public init(tracker: Tracker, refreshEvery interval: Duration = .seconds(1)) {
      self.tracker = tracker
      tasks.append(
        Task { [weak self] in
          while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            self?.refresh()
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

    /// Re-reads the figures now (views update).
    public func refresh() { revision &+= 1 }

    /// Time of `subject` in `period`, live.
    public func time(_ subject: Subject = .app, in period: Period = .allTime) -> Duration {
      _ = revision
      return tracker.time(subject, in: period)
    }

    /// Whether a rule is unlocked, live.
    public func isUnlocked(_ id: String) -> Bool {
      _ = revision
      return tracker.isUnlocked(id)
    }

    /// A rule's progress, live.
    public func progress(of rule: String) -> RuleProgress? {
      _ = revision
      return tracker.progress(of: rule)
    }

    /// Today's progress toward a goal, live.
    public func progress(of goal: DailyGoal) -> GoalProgress {
      _ = revision
      return tracker.progress(of: goal)
    }

    /// Days in a row, live.
    public func currentStreak(_ subject: Subject = .app, minimumPerDay: Duration = .zero) -> Int {
      _ = revision
      return tracker.currentStreak(subject, minimumPerDay: minimumPerDay)
    }

    /// Points, live.
    public var points: Int {
      _ = revision
      return tracker.points
    }
  }
#endif
