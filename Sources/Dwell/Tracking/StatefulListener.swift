/// A listener that keeps its state live and hands the changes over when the engine saves.

/// A ``UsageListener`` whose state changes are taken at checkpoints rather than returned
/// with each event: the Lua plugins, whose states may change every second.
///
/// The engine takes the states before it writes the journal (a checkpoint), folds into the
/// store (a commit, an export), ends a run in memory and reloads its listeners, so what a
/// crash may lose is what it may lose of the totals: the time since the last checkpoint.
package protocol StatefulListener: UsageListener {
  /// The states changed since the last call, as ``UsageAction/saveState(source:data:)``.
  func takeStates() -> [UsageAction]
  /// Whether states may have changed since the last ``takeStates()`` (a checkpoint is due).
  var hasUnsavedStates: Bool { get }
}

extension Engine {
  /// Keeps the states the listeners changed since they were last asked.
  func takeListenerStates(_ state: inout EngineState) {
    for case let listener as any StatefulListener in state.listeners {
      for case .saveState(let source, let data) in listener.takeStates() {
        state.accountant.saveState(data, for: source)
      }
    }
  }

  /// Whether a listener holds states not yet taken.
  func listenersHoldStates(_ state: borrowing EngineState) -> Bool {
    state.listeners.contains { ($0 as? any StatefulListener)?.hasUnsavedStates == true }
  }
}
