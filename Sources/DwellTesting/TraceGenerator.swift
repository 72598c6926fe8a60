package import Dwell
package import Foundation

/// Generates realistic lifecycle traces of a tab-bar learning app: sessions through the
/// day, navigation pushes and pops, page sheets, Control Centre, backgrounding, a clock
/// change and an occasional crash. Deterministic for a seed.
package struct TraceGenerator {
  /// Days to simulate.
  package var days: Int
  /// The seed.
  package var seed: UInt64
  /// The local midnight the trace starts at.
  package var start: WallInstant
  /// The time zone.
  package var timeZone: TimeZone
  /// Screen names the user moves between (the first three are tabs), as the sample pack
  /// names them: a lesson opened on top of another screen is in Lessons too.
  package var screens: [String]
  /// Average sessions a day.
  package var sessionsPerDay: Double
  /// Whether to include a crash now and then.
  package var crashes: Bool

  /// Creates a generator for `days` days starting 2026-03-02 in Europe/Berlin.
  package init(days: Int, seed: UInt64 = 1) {
    self.days = days
    self.seed = seed
    start = WallInstant(nanosecondsSince1970: 1_772_406_000_000_000_000)  // 2026-03-02T00:00+01:00
    timeZone = TimeZone(identifier: "Europe/Berlin") ?? .current
    screens = ["Home", "Lessons", "Profile", "Quiz", "Lessons", "Shop", "Settings", "Paywall"]
    sessionsPerDay = 3
    crashes = true
  }

  /// The generated trace.
  package func events() -> [TraceEvent] {
    var rng = SeededGenerator(seed: seed)
    var out: [TraceEvent] = []
    var line = 0
    var t: Int64 = 0
    var nextID = 0
    func emit(_ kind: TraceEvent.Kind) {
      line += 1
      out.append(TraceEvent(line: line, t: MonotonicInstant(nanoseconds: t), kind: kind))
    }
    func wait(_ lo: Double, _ hi: Double) {
      let ms = Int64((Double.random(in: lo...hi, using: &rng) * 1000).rounded())
      t += ms * 1_000_000
    }
    func newID() -> String {
      nextID += 1
      return "v\(nextID)"
    }
    emit(.launch(wall: start, timeZone: timeZone))
    var running = true
    // Screens stay visible across background; a new process starts with none.
    var stack: [(String, String)] = []
    var dayStart: Int64 = 0
    let tabs = Array(screens.prefix(3))
    let details = Array(screens.dropFirst(3))
    for day in 0..<days {
      let count = max(0, Int((sessionsPerDay + Double.random(in: -2...2, using: &rng)).rounded()))
      let skip = Int.random(in: 0..<7, using: &rng) == 0
      var hours = (0..<(skip ? 0 : count)).map { _ in Double.random(in: 7...23.2, using: &rng) }
      hours.sort()
      for hour in hours {
        let at = dayStart + Int64(hour * 3_600_000) * 1_000_000
        guard at > t else { continue }
        t = at
        if !running {
          emit(.launch(wall: nil, timeZone: nil))
          running = true
          stack = []
        }
        emit(.foreground)
        if stack.isEmpty {
          stack = [(tabs[0], newID())]
          emit(.appear(screen: stack[0].0, id: stack[0].1))
        }
        wait(0.1, 0.5)
        emit(.active)
        let steps = Int.random(in: 2...14, using: &rng)
        var crashed = false
        for _ in 0..<steps {
          wait(5, 240)
          switch Int.random(in: 0..<10, using: &rng) {
          case 0...3:
            let screen = details.randomElement(using: &rng) ?? "Lessons"
            let id = newID()
            emit(.appear(screen: screen, id: id))
            wait(0.2, 0.4)
            if let top = stack.last { emit(.disappear(id: top.1)) }
            stack.append((screen, id))
          case 4...5:
            if stack.count > 1, let top = stack.popLast(), let below = stack.last {
              emit(.appear(screen: below.0, id: below.1))
              wait(0.2, 0.4)
              emit(.disappear(id: top.1))
            }
          case 6:
            let tab = tabs.randomElement(using: &rng) ?? "Home"
            let id = newID()
            emit(.appear(screen: tab, id: id))
            for entry in stack { emit(.disappear(id: entry.1)) }
            stack = [(tab, id)]
          case 7:
            let id = newID()
            emit(.appear(screen: "Paywall", id: id))
            wait(3, 40)
            emit(.disappear(id: id))
          case 8:
            emit(.inactive)
            wait(2, 20)
            emit(.active)
          default:
            emit(.interact)
          }
          if crashes, Int.random(in: 0..<400, using: &rng) == 0 {
            emit(.crash)
            running = false
            crashed = true
            break
          }
        }
        if crashed { continue }
        wait(1, 30)
        emit(.inactive)
        wait(0.2, 1)
        emit(.background)
        if day == days / 2, hour == hours.last {
          wait(60, 120)
          emit(.clock(wall: nil, timeZone: TimeZone(identifier: "America/New_York")))
          wait(1, 2)
          emit(.clock(wall: nil, timeZone: timeZone))
        }
        if Int.random(in: 0..<4, using: &rng) == 0 {
          wait(60, 600)
          emit(.terminate)
          running = false
        }
      }
      dayStart += 86_400_000_000_000
    }
    if running {
      t = max(t, dayStart - 1_000_000_000)
      emit(.terminate)
    }
    return out
  }
}
