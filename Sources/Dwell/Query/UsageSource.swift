/// What answers a type's ``UsageQueries``: a tracker's engine, once the store is open.
///
/// Opaque: get one from a ``Tracker`` (``Tracker/usageSource``) and pass it on, as a type
/// that wraps a tracker does to answer the queries itself:
///
/// ```swift
/// struct LessonStats: UsageQueries {
///   let tracker: Tracker
///   var usageSource: UsageSource { tracker.usageSource }
/// }
/// ```
public struct UsageSource: Sendable {
  /// The engine that answers; `nil` before the store is open (every query answers zero).
  package let engine: Engine?

  package init(_ engine: Engine?) { self.engine = engine }
}
