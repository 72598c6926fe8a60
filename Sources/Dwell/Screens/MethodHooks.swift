/// What the UIKit adapter's appearance hooks (`DwellUIKit.trackScreensAutomatically()`)
/// decide without the Objective-C runtime: install once per process, which implementation a
/// hook calls, when to hook again, and a hook that is entered twice for one call running once.
///
/// A hook replaces a method's implementation with one that calls the implementation it
/// replaced, captured when it was installed (`method_setImplementation` with a block), instead
/// of exchanging two selectors: the original method keeps its selector, and another SDK that
/// exchanges selectors around it, before or after, stays in the chain.
///
/// Another SDK that later puts back what it saw before ours (an exchange back, a
/// `method_setImplementation` of what it saved) takes Dwell's hook out of the chain; no
/// swizzle can prevent that. ``repair(hook:)`` notices the method's implementation is no
/// longer Dwell's and hooks the new one; if Dwell's hook is still lower in the chain, a call
/// passes through two of Dwell's hooks and ``HookCalls`` lets only the outer one count.
@MainActor
package final class MethodHooks<Table: MethodTable> {
  package let table: Table
  private let methods: [Table.Method]
  private let marker: Table.Method
  /// The implementations this copy of the module installed, per method, oldest first.
  package private(set) var installed: [Table.Method: [Table.Implementation]] = [:]
  /// Whether this copy installed the hooks (`false`: not asked, or another copy had).
  package private(set) var isInstalled = false
  private var reportedOffMain = false

  /// Hooks for `methods` of `table`'s class; `marker` is the method that says, in the class
  /// itself, that a copy of Dwell hooked it in this process.
  package init(table: Table, methods: [Table.Method], marker: Table.Method) {
    self.table = table
    self.methods = methods
    self.marker = marker
  }

  /// Hooks each method, once per process: the first call of the first copy of the module to
  /// add the marker installs; any later call, from this copy or another (each module copy has
  /// statics of its own, the class has one marker), repairs instead. `hook` makes the
  /// implementation that calls `previous` for `method`. Returns whether this call installed.
  @discardableResult
  package func install(hook: (_ method: Table.Method, _ previous: Table.Implementation) -> Table.Implementation)
    -> Bool
  {
    if isInstalled {
      repair(hook: hook)
      return false
    }
    guard table.addMarker(marker) else { return false }
    isInstalled = true
    for method in methods { wrap(method, hook: hook) }
    return true
  }

  /// Hooks again each method whose implementation is no longer one of this copy's: another
  /// SDK swizzled on top (Dwell's hook is still below it: the new one lets it count once) or
  /// put back an implementation saved before Dwell's (Dwell's hook is gone). Once per change:
  /// a method whose implementation is one of Dwell's (Dwell's hook is on top) is left alone.
  package func repair(hook: (_ method: Table.Method, _ previous: Table.Implementation) -> Table.Implementation) {
    guard isInstalled else { return }
    for method in methods {
      guard let current = table.implementation(of: method) else { continue }
      if installed[method]?.contains(current) == true { continue }
      wrap(method, hook: hook)
    }
  }

  /// A hook was called off the main thread: reported to `tracker` the first time only.
  package func calledOffMain(_ what: String, tracker: Tracker?) {
    guard !reportedOffMain, let tracker else { return }
    reportedOffMain = true
    tracker.reportOffMainThread(what)
  }

  private func wrap(_ method: Table.Method, hook: (Table.Method, Table.Implementation) -> Table.Implementation) {
    guard let previous = table.implementation(of: method) else { return }
    let replacement = hook(method, previous)
    guard table.setImplementation(replacement, of: method) else { return }
    installed[method, default: []].append(replacement)
  }
}

extension Tracker {
  /// Reports that UIKit called `what` off the main thread (``TrackerProblem/offMainThread(_:)``).
  package func reportOffMainThread(_ what: String) { report(.offMainThread(what)) }
}
