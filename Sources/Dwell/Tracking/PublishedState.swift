/// What queries read on an engine with its own queue, so that they never wait for a rule,
/// a scripted check or a listener: the counts and the rule book as of the last time the
/// writer finished with its state lock, and the events the writer took from the buffer
/// and is still applying.
///
/// The writer replaces it (under its own small lock) each time it is done with a step.
/// Queries read it under that lock (``Engine/withState(_:)`` copies it out to credit time):
/// when no event waits (the usual case) they read ``accountant`` itself; otherwise ``read(_:_:)`` applies
/// the waiting events (accounting only: no rule, check or listener runs) to ``view``,
/// which keeps them until the writer publishes again, so each event is applied once.
struct PublishedState {
  var accountant: Accountant
  var book: RuleBook
  /// Events drained from the buffer by a processing step that has not published yet.
  var inflight: [StampedEvent] = []
  /// ``accountant`` with the first ``applied`` events of ``inflight`` followed by the
  /// buffer applied (the buffer only grows until the next drain); `nil` until a query
  /// finds events waiting.
  private(set) var view: Accountant?
  /// How many events of ``inflight`` then the buffer ``view`` has applied.
  private(set) var applied = 0
  /// Events copied out of the buffer for ``view``, kept for their capacity.
  private var scratch: [StampedEvent] = []

  init(accountant: Accountant, book: RuleBook) {
    self.accountant = accountant
    self.book = book
  }

  /// Replaces the state queries read with what the writer has applied, dropping the view.
  /// Returns what it replaced, for the caller to release once the lock is released:
  /// freeing the last copy of large collections is work no query should wait for.
  mutating func replace(accountant: Accountant, book: RuleBook) -> Replaced {
    var old = Replaced(accountant: accountant, book: book, view: nil, inflight: [])
    swap(&self.accountant, &old.accountant)
    swap(&self.book, &old.book)
    swap(&view, &old.view)
    swap(&inflight, &old.inflight)
    applied = 0
    return old
  }

  /// What ``replace(accountant:book:)`` replaced.
  struct Replaced {
    var accountant: Accountant
    var book: RuleBook
    var view: Accountant?
    var inflight: [StampedEvent]
  }

  /// The writer took `events` from the buffer to apply them: queries see them in flight.
  /// The view stays valid: the events it applied from the buffer are the first of these.
  mutating func drained(_ events: [StampedEvent]) {
    if !inflight.isEmpty {
      // Not reached (the writer publishes before it drains again); start afresh if it is.
      view = nil
      applied = 0
    }
    inflight = events
  }

  /// Applies the events recorded but not applied yet (in flight, then in `buffer`) to the
  /// view, and reads the view, or ``accountant`` itself when no event waits. Memory only;
  /// the buffer's lock is held only to copy the new events out.
  mutating func read<T>(_ buffer: EventBuffer, _ body: (inout Accountant, RuleBook) -> T) -> T {
    let waiting = buffer.count
    if view == nil, inflight.isEmpty, waiting == 0 { return body(&accountant, book) }
    if view == nil {
      var copy = accountant
      copy.collectsEvents = false
      view = copy
    }
    if applied < inflight.count { scratch += inflight[applied...] }
    if applied + scratch.count < inflight.count + waiting {
      buffer.copy(from: applied + scratch.count - inflight.count, into: &scratch)
    }
    if !scratch.isEmpty, var view = view.take() {
      for item in scratch { view.apply(item.event, at: max(item.at, view.cursor)) }
      self.view = view
      applied += scratch.count
      scratch.removeAll(keepingCapacity: true)
    }
    guard var view = view.take() else { return body(&accountant, book) }
    defer { self.view = view }
    return body(&view, book)
  }
}
