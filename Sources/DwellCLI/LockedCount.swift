// A count shared between threads of the kill-soak's child.
internal import Dwell
internal import DwellTesting
internal import Foundation

/// A thread-safe counter.
final class LockedCount: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func add() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
