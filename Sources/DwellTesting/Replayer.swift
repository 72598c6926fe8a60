// Replays a whole lifecycle trace on a store and reports what it left: `dwell replay`'s engine.
package import Dwell
internal import Foundation

/// Feeds a whole lifecycle trace to real engines on a real store (through a ``TraceDriver``),
/// driven by a manual clock, and reports what the trace left.
///
/// ```swift
/// let events = try TraceParser.parse(text)
/// let report = try Replayer(storePath: path, configuration: config).run(events)
/// ```
package struct Replayer {
  /// The store file the engines share.
  package var storePath: String
  /// The engines' configuration.
  package var configuration: Engine.Configuration

  /// Creates a replayer.
  package init(storePath: String, configuration: Engine.Configuration = Engine.Configuration()) {
    self.storePath = storePath
    self.configuration = configuration
  }

  /// Replays `events` and returns the report at the end of the trace: the live report if
  /// the process is still running, otherwise what the store holds.
  ///
  /// - Parameter progress: called with the number of events done, every 1,000 events.
  /// - Throws: ``StoreError`` or ``RuleError`` from the engine.
  package func run(_ events: [TraceEvent], progress: ((Int) -> Void)? = nil) throws -> UsageReport {
    let driver = TraceDriver(storePath: storePath, configuration: configuration)
    for (index, event) in events.enumerated() {
      try driver.apply(event)
      if let progress, index % 1000 == 999 { progress(index + 1) }
    }
    if let engine = driver.engine { return engine.report() }
    return try UsageReport(store: Store(path: storePath))
  }
}
