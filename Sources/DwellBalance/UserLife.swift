// Generates one simulated user's life, event by event, from the seed and the user's index.
package import Dwell
internal import DwellTesting
internal import Foundation

/// One simulated user: a persona and a deterministic stream of events.
///
/// The user's generator is seeded from the run's seed and the user's index alone, so a
/// user's life does not depend on which worker simulates it, or on the rule pack.
package struct UserLife {
  package static let day: Int64 = 86_400_000_000_000
  /// Monday 2026-01-05, 00:00 UTC: by default users install on one of the seven days
  /// from it (`dwell balance --start` names another first day).
  package static let firstInstall = WallInstant(nanosecondsSince1970: 1_767_571_200_000_000_000)
  /// The default first install day, ``firstInstall``'s.
  package static let firstDay = Day(ordinal: 20_458)

  package let index: Int
  package let personaIndex: Int
  package let persona: Persona
  /// The install day's midnight (UTC), the origin of the user's timeline.
  package let install: WallInstant
  /// The install day's weekday, 0 = Monday.
  package let installWeekday: Int
  package let days: Int
  private var rng: SeededGenerator
  /// Events generated so far; past `limit` (``maximumEvents`` unless told) the life stops
  /// (``isCut``).
  package private(set) var events = 0
  /// The instant of the last event, which an action performed late is dated at.
  private var lastEvent: Int64 = 0
  private let limit: Int

  /// The most events one user's life may have: a replay's bound (a 64 MiB trace holds
  /// about 800,000 events), so a persona cannot make a user whose life never ends.
  package static let maximumEvents = 800_000

  /// Whether the life stopped at ``maximumEvents`` before its last day.
  package var isCut: Bool { events > limit }

  /// User `index` of a run of `seed`; `start` is the first day users may install on (they
  /// install on one of the seven days from it, at midnight UTC).
  package init(
    index: Int, seed: UInt64, population: Population, days: Int, start: Day = firstDay,
    limit: Int = maximumEvents
  ) {
    self.limit = limit
    var mixer = SeededGenerator(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15))
    var rng = SeededGenerator(seed: mixer.next() ^ mixer.next())
    self.index = index
    personaIndex = population.persona(&rng)
    persona = population.personas[personaIndex]
    let offset = Int32(rng.next() % 7)
    let installDay = start.adding(days: offset)
    installWeekday = installDay.weekday - 1
    install = WallInstant(nanosecondsSince1970: Int64(installDay.ordinal) * Self.day)
    self.days = days
    self.rng = rng
  }

  /// Generates the whole life into `sink`.
  package mutating func run<Sink: LifeSink>(into sink: inout Sink) {
    var state = Walk()
    var usedYesterday = true
    var daysUsed = 0
    var gone = false
    for day in 0..<days where !isCut {
      let dayStart = Int64(day) * Self.day
      var used = false
      if !gone {
        let weekday = (installWeekday + day) % 7
        let chance =
          day == 0 ? 1 : min(1, (usedYesterday ? persona.daily : persona.comeback) * persona.weekdays[weekday])
        used = day == 0 || Distribution.unit(&rng) < chance
        if used {
          // At most 48 sessions a day, capped before the conversion (a draw of 1e300 trapped).
          let count = max(1, Int(min(persona.sessions.sample(&rng), 48).rounded()))
          var starts = (0..<count).map { _ in sessionStart() }
          starts.sort()
          for start in starts { session(at: max(dayStart + start, state.t + 60_000_000_000), &state, &sink) }
          daysUsed += 1
          if Distribution.unit(&rng) < persona.churn.chance(afterDay: daysUsed) { gone = true }
        }
        usedYesterday = used
      }
      sink.endOfDay(day, at: max(dayStart + Self.day, state.t))
    }
    if state.launched, !isCut { emit(&sink, .terminate, at: max(Int64(days) * Self.day, state.t + 1_000_000)) }
  }

  /// Where the user is: the clock, the visible screen, ids handed out, the actions drawn
  /// for the session and stay under way and not yet performed.
  private struct Walk {
    var t: Int64 = 0
    var launched = false
    var visible: (screen: Int, id: String)?
    var nextID = 0
    /// Instants (ascending) and indexes into the persona's actions.
    var actions: [(t: Int64, rate: Int)] = []
  }

  /// Nanoseconds after midnight at which a session starts.
  private mutating func sessionStart() -> Int64 {
    let slots = persona.timeOfDay
    let slot = slots[Distribution.pick(slots.lazy.map(\.weight), &rng)]
    let hour = slot.from + (slot.to - slot.from) * Distribution.unit(&rng)
    return Int64(hour * 3_600_000) * 1_000_000
  }

  private mutating func seconds(_ distribution: Distribution, atLeast floor: Double) -> Int64 {
    Int64(max(floor, min(distribution.sample(&rng), 86_400)) * 1000) * 1_000_000
  }

  private mutating func session<Sink: LifeSink>(at start: Int64, _ w: inout Walk, _ sink: inout Sink) {
    w.t = start
    if !w.launched {
      emit(&sink, .launch(wall: install.adding(nanoseconds: start), timeZone: UserLife.utc), at: w.t)
      w.launched = true
    }
    emit(&sink, .foreground, at: w.t)
    var screen = persona.start
    if w.visible?.screen != screen {
      let old = w.visible
      w.visible = (screen, newID(&w))
      emit(&sink, .appear(screen: persona.screens[screen].name, id: w.visible?.id ?? ""), at: w.t)
      if let old { emit(&sink, .disappear(id: old.id), at: w.t + 200_000_000) }
      w.t += 200_000_000
    }
    w.t += 200_000_000
    emit(&sink, .active, at: w.t)
    var end = w.t + seconds(persona.sessionLength, atLeast: 1)
    if !persona.actions.isEmpty { draw(nil, from: w.t, to: end, &w) }
    while w.t < end, !isCut {
      if persona.idle.chance > 0, Distribution.unit(&rng) < persona.idle.chance {
        // A pause without touching, on this screen.
        let pause = seconds(persona.idle.length, atLeast: 0)
        w.t += pause
        end += pause
      }
      let stayEnd = min(w.t + seconds(persona.screens[screen].stay, atLeast: 0.5), end)
      if !persona.actions.isEmpty { draw(screen, from: w.t, to: stayEnd, &w) }
      var touch = w.t + seconds(persona.touches, atLeast: 0.5)
      while touch < stayEnd, !isCut {
        if !w.actions.isEmpty { perform(upTo: touch, &w, &sink) }
        emit(&sink, .interact, at: touch)
        touch += seconds(persona.touches, atLeast: 0.5)
      }
      if !w.actions.isEmpty { perform(upTo: stayEnd, &w, &sink) }
      w.t = stayEnd
      guard w.t < end else { break }
      if persona.background.chance > 0, Distribution.unit(&rng) < persona.background.chance {
        // Out to another app and back; the screen stays where it was.
        let away = seconds(persona.background.length, atLeast: 1)
        emit(&sink, .inactive, at: w.t)
        emit(&sink, .background, at: w.t + 300_000_000)
        w.t += 300_000_000 + away
        emit(&sink, .foreground, at: w.t)
        w.t += 200_000_000
        emit(&sink, .active, at: w.t)
        end += away + 500_000_000
      }
      let next = persona.screens[screen].next
      guard !next.isEmpty else {
        w.t = end
        break
      }
      let old = w.visible
      screen = next[Distribution.pick(next.lazy.map(\.weight), &rng)].screen
      w.visible = (screen, newID(&w))
      emit(&sink, .appear(screen: persona.screens[screen].name, id: w.visible?.id ?? ""), at: w.t)
      w.t += 300_000_000
      if let old { emit(&sink, .disappear(id: old.id), at: w.t) }
    }
    if !w.actions.isEmpty { perform(upTo: .max, &w, &sink) }
    emit(&sink, .inactive, at: w.t)
    w.t += 500_000_000
    emit(&sink, .background, at: w.t)
  }

  /// Draws the actions of a session (`screen` nil) or of a stay on `screen`, each at an
  /// instant evenly between `start` and `end`, into the walk's queue.
  private mutating func draw(_ screen: Int?, from start: Int64, to end: Int64, _ w: inout Walk) {
    var added = false
    for (index, rate) in persona.actions.enumerated() where rate.screen == screen {
      if rate.chance < 1, Distribution.unit(&rng) >= rate.chance { continue }
      // Capped before the conversion, as sessions are (a draw of 1e300 would trap).
      let count = Int(min(rate.count.sample(&rng), Double(Persona.ActionRate.maximumCount)).rounded())
      for _ in 0..<max(count, 0) {
        // Whole milliseconds, as every instant of a life is (a trace keeps no finer).
        let offset = Int64(Double(end - start) * Distribution.unit(&rng)) / 1_000_000 * 1_000_000
        w.actions.append((start + offset, index))
        added = true
      }
    }
    if added { w.actions.sort { ($0.t, $0.rate) < ($1.t, $1.rate) } }
  }

  /// Performs the queued actions due by `t`, each at its instant, or at the last event's if
  /// the user was away then (the app in the background): events stay in time order.
  private mutating func perform<Sink: LifeSink>(upTo t: Int64, _ w: inout Walk, _ sink: inout Sink) {
    var done = 0
    while done < w.actions.count, w.actions[done].t <= t, !isCut {
      let (at, rate) = w.actions[done]
      emit(&sink, .action(name: persona.actions[rate].name, count: 1), at: max(at, lastEvent))
      done += 1
    }
    w.actions.removeFirst(done)
  }

  private mutating func emit<Sink: LifeSink>(_ sink: inout Sink, _ kind: TraceEvent.Kind, at t: Int64) {
    events += 1
    lastEvent = t
    if !isCut { sink.event(kind, at: t) }
  }

  private func newID(_ w: inout Walk) -> String {
    w.nextID += 1
    return "s\(w.nextID)"
  }

  static let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
}

extension WallInstant {
  func adding(nanoseconds: Int64) -> WallInstant {
    WallInstant(nanosecondsSince1970: nanosecondsSince1970 + nanoseconds)
  }
}
