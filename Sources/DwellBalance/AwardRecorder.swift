// Stands between an engine and a pack's plugins in a balance run, counting the points each plugin awards
// and noting the rules whose progress a plugin reports.
internal import Dwell

/// A listener that forwards every call to the pack's own (`inner`) and adds up the points
/// of each `award` it answers with, by plugin, for the report's points by source. It keeps
/// no state of its own: the plugins' states still go to the engine as before.
final class AwardRecorder: StatefulListener {
  let inner: any UsageListener
  let inbox: UserRun.Inbox

  init(_ inner: any UsageListener, inbox: UserRun.Inbox) {
    self.inner = inner
    self.inbox = inbox
  }

  var wantsTicks: Bool { inner.wantsTicks }

  func restore(states: [String: String]) { inner.restore(states: states) }

  func receive(_ event: UsageEvent, usage: UsageFigures) -> [UsageAction] {
    let actions = inner.receive(event, usage: usage)
    for action in actions {
      switch action {
      case .award(let points, _, let source): inbox.content.withLock { $0.awards[source, default: 0] += points }
      case .progress(let rule, _, _): inbox.reported(rule)
      default: break
      }
    }
    return actions
  }

  func takeStates() -> [UsageAction] { (inner as? any StatefulListener)?.takeStates() ?? [] }

  var hasUnsavedStates: Bool { (inner as? any StatefulListener)?.hasUnsavedStates ?? false }
}
