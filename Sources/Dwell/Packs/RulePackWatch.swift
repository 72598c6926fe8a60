// A running watch of a rule pack's source, stopped by its owner.

/// A watch on a ``RulePackSource``: its baseline is taken when it is made, it looks for
/// changes from ``start()`` on, and stops when cancelled.
package protocol RulePackWatch: ScheduledWork {
  /// Starts looking for changes since the baseline.
  func start()
}
