/// A message a plugin posts for the host app to show ("show the 'Night owl' badge").
public struct UsageNotification: Sendable, Equatable {
  /// Who posted it.
  public var source: String
  /// A short title.
  public var title: String
  /// Optional body text.
  public var body: String?
  /// When, on the monotonic clock.
  package var instant: MonotonicInstant

  /// Creates a notification (plugins post them).
  package init(source: String, title: String, body: String? = nil, instant: MonotonicInstant) {
    self.source = source
    self.title = title
    self.body = body
    self.instant = instant
  }
}
