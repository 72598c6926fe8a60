// The calls the method hooks forward, made on the main thread or reported.

/// The calls of a hooked method now running, by receiver and method, on any thread: a hook
/// entered again for the same call (two of Dwell's hooks in one chain, see
/// ``MethodHooks/repair(hook:)``) learns it is not the outer one and only forwards.
package final class HookCalls: Sendable {
  private struct Call: Hashable {
    let receiver: ObjectIdentifier
    let method: Int
  }
  private let running = Locked(Set<Call>())

  package init() {}

  /// Runs `forward` (the implementation the hook replaced), then `body` if this is the outer
  /// hook of the call: the one that entered first for `receiver` and `method`.
  package func call(receiver: AnyObject, method: Int, forward: () -> Void, body: () -> Void) {
    let call = Call(receiver: ObjectIdentifier(receiver), method: method)
    let outer = running.withLock { $0.insert(call).inserted }
    forward()
    guard outer else { return }
    running.withLock { _ = $0.remove(call) }
    body()
  }
}
