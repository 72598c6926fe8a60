import DwellTesting
import Foundation
import Testing

// Queries read the published state in place (no copy per query) and clean names without
// building a string when they are clean already; both must answer as before.
@testable import Dwell

@Suite struct QueryReadingTests {
  /// An engine on its own queue answers every query as an engine that applies each event
  /// at once, whatever the writer is doing: events still in the buffer, events it took
  /// and is applying, or a fresh publication.
  @Test func aQueuedEngineAnswersAsASynchronousOne() throws {
    let clocks = (ManualClock(), ManualClock())
    let walls = (ManualWallClock(clock: clocks.0), ManualWallClock(clock: clocks.1))
    let now = try Engine(inMemory: .init(), clock: clocks.0, wallClock: walls.0, scheduler: clocks.0)
    let queued = try Engine(
      inMemory: .init(), clock: clocks.1, wallClock: walls.1, scheduler: DispatchScheduler(clock: clocks.1))
    var rng = SystemRandomNumberGenerator()
    var visible: [Int] = []
    var next = 0
    for step in 0..<3000 {
      var events: [LifecycleEvent] = []
      switch Int.random(in: 0..<10, using: &rng) {
      case 0: events = [.active]
      case 1: events = [.inactive]
      case 2, 3:
        next += 1
        visible.append(next)
        events = [.appear(screen: "S\(next % 4)", id: ScreenInstance("\(next)"))]
      case 4 where !visible.isEmpty:
        events = [.disappear(id: ScreenInstance("\(visible.removeFirst())"))]
      case 5:
        // Hours at a time, so days change (and midnight is crossed) now and then.
        let amount = Duration.milliseconds(Int64.random(in: 1...7_200_000, using: &rng))
        clocks.0.advance(by: amount)
        clocks.1.advance(by: amount)
      case 6: queued.onWriter { $0.process() }
      default: break
      }
      for event in events {
        now.record(event)
        queued.record(event)
      }
      let screen = Subject.screen("S\(step % 4)")
      #expect(queued.time(.app) == now.time(.app), "step \(step)")
      #expect(queued.time(screen, in: .today) == now.time(screen, in: .today), "step \(step)")
      #expect(queued.time(screen, in: .lastDays(2)) == now.time(screen, in: .lastDays(2)), "step \(step)")
      #expect(queued.visits("S\(step % 4)") == now.visits("S\(step % 4)"), "step \(step)")
      #expect(queued.sessions == now.sessions, "step \(step)")
    }
    queued.terminate()
    now.terminate()
  }

  /// `ScreenName.clean` returns clean names as they are without rebuilding them: it must
  /// answer exactly as the full cleaning (kept here as it was) for every kind of name.
  @Test func cleaningAnswersAsTheFullCleaning() {
    func reference(_ name: String) -> String {
      var result = String(
        String.UnicodeScalarView(name.unicodeScalars.filter { $0.properties.generalCategory != .control })
      )
      .trimmingCharacters(in: .whitespacesAndNewlines)
      if result.count > 200 { result = String(result.prefix(200)) }
      return result.isEmpty ? "Unnamed" : result
    }
    let pieces: [String] = [
      "a", "Lessons", " ", "\t", "\n", "\r\n", "\u{0}", "\u{7F}", "\u{85}", "\u{9F}", "\u{A0}", "\u{1680}",
      "\u{2003}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{3000}", "\u{200B}", "\u{200D}", "\u{200C}", "\u{FEFF}",
      "é", "e\u{301}", "👩", "🇫🇷", "می", "日本", String(repeating: "x", count: 60), String(repeating: "語", count: 40),
    ]
    var rng = SystemRandomNumberGenerator()
    var names = pieces + ["", String(repeating: "y", count: 200), String(repeating: "y", count: 201)]
    for _ in 0..<20_000 {
      names.append(
        (0..<Int.random(in: 1...6, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined())
    }
    for name in names {
      let cleaned = ScreenName.clean(name)
      #expect(cleaned == reference(name), "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
      #expect(ScreenName.clean(cleaned) == cleaned)
    }
  }
}
