/// Which recorded events can make a waiting rule hold at once, so the recording thread asks
/// the writer to apply them now instead of at the next checkpoint (prompt unlocks).
///
/// The rule book reckons it from the rules that wait (``RuleBook/interest``) and the engine
/// hands it to its event buffer, where the hot path reads it under the buffer's own lock:
/// no lock shared with I/O or scripts is taken to decide. A visit to a screen a rule names
/// (its visits, its time, its days) and an action a rule counts are wanted; sessions begin
/// at `active` and `foreground`, which always wake the writer. Scripted checks and plugins
/// keep their own cadence (the tick, the checkpoint) and want nothing here.
struct EventInterest: Sendable, Equatable {
  /// Screens whose appearance can change a waiting rule (cleaned names, as recorded).
  var screens: Set<String> = []
  /// Actions whose count can change a waiting rule.
  var actions: Set<String> = []

  /// Nothing is wanted: every routine event waits for the writer's own cadence.
  static let none = EventInterest()

  /// What the `conditions` of waiting rules want.
  init<Conditions: Sequence<Condition>>(_ conditions: Conditions) {
    for condition in conditions { collect(condition) }
  }

  private init() {}

  private mutating func collect(_ condition: Condition) {
    switch condition {
    case .screenTime(let screen, _), .visits(let screen, _): insert(screen)
    case .activeDays(_, _, let screen?), .streak(_, _, let screen?): insert(screen)
    case .actions(let name, _), .actionDays(_, let name, _), .actionStreak(_, let name, _): actions.insert(name)
    case .all(let parts), .any(let parts): for part in parts { collect(part) }
    case .within(_, let inner): collect(inner)
    case .appTime, .sessions, .activeDays, .streak, .unlocked, .check, .points, .level: break
    }
  }

  /// A screen's name, or a group's members (``ScreenGroup``): an appearance of any changes it.
  private mutating func insert(_ screen: String) {
    if let members = ScreenGroup.members(screen) { screens.formUnion(members) } else { screens.insert(screen) }
  }

  /// Whether `event`, once applied, may make a waiting rule hold.
  @inline(__always)
  func wants(_ event: LifecycleEvent) -> Bool {
    switch event {
    case .appear(let screen, _): return !screens.isEmpty && screens.contains(screen)
    case .action(let name, _): return !actions.isEmpty && actions.contains(name)
    default: return false
    }
  }
}
