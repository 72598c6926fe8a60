import Dwell
import DwellTesting
import Testing

@Suite struct TraceTests {
  @Test(arguments: [
    ([#"{"t":0,"event":"active"}"#], 1),
    ([#"{"t":0,"event":"launch","tz":"UTC"}"#], 1),
    ([#"{"t":0,"event":"launch","wall":"2026-01-01T00:00:00Z","tz":"UTC"}"#, #"{"t":1,"event":"launch"}"#], 2),
    ([#"{"t":0,"event":"launch","wall":"2026-01-01T00:00:00Z","tz":"UTC"}"#, #"{"t":NaN,"event":"active"}"#], 2),
    ([#"{"t":0,"event":"launch","wall":"2026-01-01T00:00:00Z","tz":"UTC"}"#, #"{"t":"1","event":"active"}"#], 2),
    ([#"{"t":0,"event":"launch","wall":"2026-01-01T00:00:00Z","tz":"UTC"}"#, "", #"{"t":2,"#], 3),
    ([#"{"t":0,"event":"launch","wall":"2026-01-01T00:00:00Z","tz":"Mars/Base"}"#], 1),
    ([#"{"t":0,"event":"launch","wall":"2026-02-30T00:00:00Z","tz":"UTC"}"#], 1),
    (
      [
        #"{"t":0,"event":"launch","wall":"2026-01-01T00:00:00Z","tz":"UTC"}"#, #"{"t":1,"event":"crash"}"#,
        #"{"t":2,"event":"active"}"#,
      ], 3
    ),
    (
      [
        #"{"t":0,"event":"launch","wall":"2026-01-01T00:00:00Z","tz":"UTC"}"#,
        #"{"t":1,"event":"appear","screen":"","id":"x"}"#,
      ], 2
    ),
    (
      [
        #"{"t":0,"event":"launch","wall":"2026-01-01T00:00:00Z","tz":"UTC"}"#,
        #"{"t":1,"event":"appear","screen":"A","id":7}"#,
      ], 2
    ),
    ([#"{"t":5,"event":"launch","wall":"2026-01-01T00:00:00Z","tz":"UTC"}"#, #"{"t":4,"event":"active"}"#], 2),
    // Found by the fuzzer: a year far from 1970 overflowed nanoseconds since 1970.
    ([#"{"t":0,"event":"launch","wall":"1013-01-01T00:00:00Z","tz":"UTC"}"#], 1),
    ([#"{"t":0,"event":"launch","wall":"9999-12-31T23:59:59Z","tz":"UTC"}"#], 1),
    // Passed the old bound (1e11) and overflowed nanoseconds: a crash.
    ([#"{"t":0,"event":"launch","wall":"2026-01-01T00:00:00Z","tz":"UTC"}"#, #"{"t":5e10,"event":"active"}"#], 2),
  ])
  func invalidTracesNameTheLine(lines: [String], line: Int) {
    #expect {
      try TraceParser.parse(lines.joined(separator: "\n"))
    } throws: { error in
      (error as? TraceError)?.line == line && "\(error)".hasPrefix("line \(line): ")
    }
  }

  @Test func wallOffsetsAndFractionsAreExact() {
    #expect(parseWall("2026-03-08T04:50:00Z") == parseWall("2026-03-07T23:50:00-05:00"))
    #expect(
      parseWall("2026-03-08T04:50:00.125+0000").nanosecondsSince1970
        == parseWall("2026-03-08T04:50:00Z").nanosecondsSince1970 + 125_000_000)
  }

  /// The generator's screens are the sample pack's: Lessons, and no two names a slip apart
  /// (it used to open "Lesson" beside "Lessons").
  @Test func generatedScreensAreNamedAsTheSamplePackDoes() {
    var names = Set<String>()
    for event in TraceGenerator(days: 30, seed: 5).events() {
      if case .appear(let screen, _) = event.kind { names.insert(screen) }
    }
    #expect(names.contains("Lessons"), "\(names)")
    for name in names {
      let near = Spelling.closest(to: name, in: names.filter { $0 != name })
      #expect(near == nil, "'\(name)' and '\(near ?? "")' in one trace")
    }
  }

  @Test func generatedTracesRoundTripThroughTheParser() throws {
    let events = TraceGenerator(days: 10, seed: 7).events()
    let text = events.map(\.jsonLine).joined(separator: "\n")
    let parsed = try TraceParser.parse(text)
    #expect(parsed.count == events.count)
    #expect(parsed.map(\.kind) == events.map(\.kind))
    #expect(parsed.map(\.t) == events.map(\.t))
  }

  @Test func replayingTheSameTraceTwiceGivesTheSameReport() throws {
    let events = TraceGenerator(days: 14, seed: 3).events()
    let a = TemporaryStore()
    let b = TemporaryStore()
    let first = try Replayer(storePath: a.path).run(events)
    let second = try Replayer(storePath: b.path).run(events)
    #expect(first == second)
    #expect(first.app.time > .zero)
    let daySum = first.app.days.values.reduce(Duration.zero, +)
    #expect(daySum == first.app.time)
    for (_, screen) in first.screens {
      #expect(screen.time <= first.app.time)
      #expect(screen.days.values.reduce(Duration.zero, +) == screen.time)
    }
  }
}
