/// What queries read on an engine with its own queue, so that they never wait for a rule,
/// a scripted check or a listener: a copy of the counts and the rule book as of the last
/// time the writer finished with its state lock, and the events the writer took from the
/// buffer and is still applying.
///
/// The writer replaces it (under its own small lock) each time it is done with a step;
/// copying is cheap because the collections inside are copy-on-write. A query copies it
/// out, applies the events still in flight and in the buffer to its copy (accounting only:
/// no rule, check or listener runs), and answers from that copy.
struct PublishedState {
  var accountant: Accountant
  var book: RuleBook
  /// Events drained from the buffer by a processing step that has not published yet.
  var inflight: [StampedEvent] = []
  /// Bumped whenever the fields above change.
  var generation: UInt64 = 0
  /// The last query's copy, with the first `caughtUp` events of `inflight` followed by the
  /// buffer applied (the buffer only grows until the next drain), so the next query
  /// applies only what came after.
  var caught: (accountant: Accountant, caughtUp: Int, generation: UInt64)?

  /// Replaces the state queries read, dropping the last query's copy.
  mutating func replace(accountant: Accountant, book: RuleBook, inflight: [StampedEvent]) {
    self.accountant = accountant
    self.book = book
    self.inflight = inflight
    generation &+= 1
    caught = nil
  }
}
