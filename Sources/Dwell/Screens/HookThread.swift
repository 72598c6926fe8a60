// Which thread a hooked call came on.

/// Where a hook that UIKit called runs Dwell's part: now on the main thread; off it (an app or
/// SDK driving appearance off the main thread, which UIKit does not support), on the main
/// queue, reported once as ``TrackerProblem/offMainThread(_:)``, never trapping the app.
package enum HookThread: Equatable, Sendable {
  case now
  case mainQueue

  package static func decide(isMainThread: Bool) -> HookThread { isMainThread ? .now : .mainQueue }
}
