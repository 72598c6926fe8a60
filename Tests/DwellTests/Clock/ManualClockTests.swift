import Dwell
import DwellTesting
import Testing

// The manual clock runs its timers at their instants, in order, whatever order they were
// scheduled and cancelled in (its timers are a heap, not a list scanned for the earliest).
@Suite struct ManualClockTests {
  /// Thousands of timers scheduled at random instants, a third cancelled (some of them
  /// twice, some after they ran), some scheduling more from inside a timer: every live
  /// timer runs once, at its instant, in (instant, order of scheduling) order.
  @Test func timersRunInOrderOfInstantThenScheduling() {
    var rng = SeededGenerator(seed: 5)
    let clock = ManualClock()
    let ran = Locked<[(id: Int, at: Int64, now: Int64)]>([])
    var expected: [(id: Int, at: Int64)] = []
    var handles: [(id: Int, work: any ScheduledWork)] = []
    var nextID = 0
    func schedule(at: Int64) {
      nextID += 1
      let id = nextID
      let work = clock.schedule(at: MonotonicInstant(nanoseconds: at)) {
        ran.withLock { $0.append((id, at, clock.now().nanoseconds)) }
      }
      handles.append((id, work))
      expected.append((id, at))
    }
    for _ in 0..<3000 { schedule(at: Int64.random(in: 1...1000, using: &rng)) }
    var cancelled = Set<Int>()
    for (id, work) in handles where Int.random(in: 0..<3, using: &rng) == 0 {
      work.cancel()
      work.cancel()
      cancelled.insert(id)
    }
    #expect(clock.pendingTimers == 3000 - cancelled.count)
    // Half way, then the rest, with more timers scheduled in between.
    clock.advance(to: MonotonicInstant(nanoseconds: 500))
    for _ in 0..<500 { schedule(at: Int64.random(in: 400...1500, using: &rng)) }
    clock.advance(to: MonotonicInstant(nanoseconds: 2000))
    for (_, work) in handles { work.cancel() }  // already ran or cancelled: no effect

    let live = expected.filter { !cancelled.contains($0.id) }
    let order = ran.withLock { $0 }
    #expect(order.count == live.count)
    #expect(Set(order.map(\.id)) == Set(live.map(\.id)))
    // Each ran at its instant, or at once if it was scheduled in the past.
    for timer in order { #expect(timer.now == max(timer.at, timer.id > 3000 ? 500 : 0)) }
    for (a, b) in zip(order, order.dropFirst()) where a.id <= 3000 && b.id <= 3000 {
      #expect((a.at, a.id) < (b.at, b.id))
    }
    #expect(clock.pendingTimers == 0)
    #expect(clock.now().nanoseconds == 2000)
  }

  /// A timer that schedules another inside the same advance runs it there, if it is due.
  @Test func timersScheduledByTimersRunInTheSameAdvance() {
    let clock = ManualClock()
    let ran = Locked<[Int64]>([])
    _ = clock.schedule(at: MonotonicInstant(nanoseconds: 10)) {
      ran.withLock { $0.append(clock.now().nanoseconds) }
      _ = clock.schedule(at: MonotonicInstant(nanoseconds: 15)) { ran.withLock { $0.append(clock.now().nanoseconds) } }
      _ = clock.schedule(at: MonotonicInstant(nanoseconds: 25)) { ran.withLock { $0.append(clock.now().nanoseconds) } }
    }
    clock.advance(to: MonotonicInstant(nanoseconds: 20))
    #expect(ran.withLock { $0 } == [10, 15])
    #expect(clock.horizon == nil)
    #expect(clock.pendingTimers == 1)
    clock.advance(by: .nanoseconds(10))
    #expect(ran.withLock { $0 } == [10, 15, 25])
  }
}
