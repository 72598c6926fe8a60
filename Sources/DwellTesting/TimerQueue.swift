// The pending timers of a ManualClock: a binary min-heap by (deadline, order of scheduling).

/// Timers waiting on a ``ManualClock``, earliest first; among timers due at the same
/// instant, the one scheduled first.
///
/// A cancelled timer leaves the live set at once and the heap lazily (when it reaches the
/// top, or when cancelled entries outnumber live ones and the heap is rebuilt), so
/// scheduling, cancelling and taking the next timer cost O(log n), not a scan of every timer.
struct TimerQueue {
  struct Timer {
    var id: Int
    var at: Int64
    var work: @Sendable () -> Void
  }

  private var heap: [Timer] = []
  /// Ids of the timers scheduled and neither run nor cancelled.
  private var live: Set<Int> = []
  private var nextID = 0

  /// How many timers wait (cancelled ones excluded).
  var count: Int { live.count }

  /// Adds a timer due at `at`; returns its id, for ``cancel(_:)``.
  mutating func schedule(at: Int64, _ work: @escaping @Sendable () -> Void) -> Int {
    nextID += 1
    live.insert(nextID)
    heap.append(Timer(id: nextID, at: at, work: work))
    siftUp(heap.count - 1)
    return nextID
  }

  /// Cancels timer `id`; nothing if it already ran or was cancelled.
  mutating func cancel(_ id: Int) {
    guard live.remove(id) != nil else { return }
    if heap.count > 64, heap.count > 2 * live.count { rebuild() }
  }

  /// Removes and returns the earliest timer due at or before `limit`.
  mutating func popDue(by limit: Int64) -> Timer? {
    while let first = heap.first {
      guard live.contains(first.id) else {
        removeFirst()
        continue
      }
      guard first.at <= limit else { return nil }
      removeFirst()
      live.remove(first.id)
      return first
    }
    return nil
  }

  /// Drops every timer.
  mutating func removeAll() {
    heap.removeAll()
    live.removeAll()
  }

  private static func precedes(_ a: Timer, _ b: Timer) -> Bool { (a.at, a.id) < (b.at, b.id) }

  private mutating func removeFirst() {
    let last = heap.removeLast()
    guard !heap.isEmpty else { return }
    heap[0] = last
    siftDown(0)
  }

  /// Keeps only the live timers (after many cancellations), in heap order.
  private mutating func rebuild() {
    heap.removeAll { !live.contains($0.id) }
    for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
  }

  private mutating func siftUp(_ start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard Self.precedes(heap[child], heap[parent]) else { return }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    while true {
      var best = parent
      let left = 2 * parent + 1
      if left < heap.count, Self.precedes(heap[left], heap[best]) { best = left }
      if left + 1 < heap.count, Self.precedes(heap[left + 1], heap[best]) { best = left + 1 }
      guard best != parent else { return }
      heap.swapAt(parent, best)
      parent = best
    }
  }
}
