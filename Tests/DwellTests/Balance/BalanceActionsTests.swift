import DwellTesting
import Foundation
import Testing

// Personas that perform actions (#24 item 4): per session or per stay on a screen, read and
// checked with the persona's line, deterministic, through the real engine, figures by hand.
@testable import Dwell
@testable import DwellBalance

@Suite struct BalanceActionsTests {
  /// One session a day of exactly 300 s active, on A, B, A, B, A (60 s each): two stays on
  /// B a day. Two `quiz_done` a session, one `b_done` a stay on B.
  static let personas = """
    persona "quizzer" {
      daily = 1, churn = 0, sessions = 1, sessionLength = 300, touches = 20,
      screens = { A = { stay = 60, next = { B = 1 } }, B = { stay = 60, next = { A = 1 } } },
      start = "A",
      actions = {
        quiz_done = { per = "session", count = 2 },
        b_done = { per = "visit", screen = "B" },
      },
    }
    """

  static let pack = """
    unlock "ten-quizzes" { when = { action = "quiz_done", count = 10 } }
    unlock "six-b" { when = { action = "b_done", count = 6 } }
    unlock "hour" { when = { appSeconds = 3600 } }
    """

  static func report(_ pack: String, _ personas: String, users: Int, days: Int, seed: UInt64 = 1) async throws
    -> BalanceReport
  {
    let directory = TemporaryStore()
    let path = directory.directory + "/pack.lua"
    try pack.write(toFile: path, atomically: true, encoding: .utf8)
    let population = try PersonaFile.parse(personas, file: "personas.lua")
    let balance = try BalancePack(path: path)
    let run = BalanceRun(pack: balance, population: population, users: users, days: days, seed: seed, threads: 2)
    return BalanceReport(stats: try await run.run(), pack: balance, population: population, seed: seed)
  }

  @Test func actionRatesAreRead() throws {
    let persona = try #require(PersonaFile.parse(Self.personas, file: "personas.lua").personas.first)
    #expect(persona.actions.map(\.name) == ["b_done", "quiz_done"])
    #expect(persona.actions[0].screen == 1 && persona.actions[0].count == .constant(1))
    #expect(persona.actions[1].screen == nil && persona.actions[1].count == .constant(2))
    #expect(persona.actions.allSatisfy { $0.chance == 1 })
    let other =
      "persona \"p\" { screens = { Quiz = {} }, actions = { x = { per = \"visit\", screen = \"Quiz\","
      + " chance = 0.25, count = poisson(3) } } }"
    let rate = try #require(PersonaFile.parse(other, file: "p.lua").personas.first?.actions.first)
    #expect(rate.chance == 0.25 && rate.count == .poisson(3) && rate.screen == 0)
  }

  /// Each mistake names the file, the persona's line, the persona and the key.
  @Test(arguments: [
    (
      #"quiz_done = { per = "sesion" }"#,
      #"actions.quiz_done.per must be "session" or "visit" (did you mean 'session'?)"#
    ),
    (#"quiz_done = { per = "visit" }"#, #"actions.quiz_done: per = "visit" needs the screen, as in screen = "A""#),
    (
      #"quiz_done = { per = "visit", screen = "b" }"#,
      "actions.quiz_done.screen: 'b' is not one of the screens (did you mean 'B'?)"
    ),
    (#"quiz_done = { screen = "B" }"#, #"actions.quiz_done.screen goes with per = "visit""#),
    ("quiz_done = { chance = 2 }", "actions.quiz_done.chance must be between 0 and 1"),
    ("quiz_done = { chance = \"often\" }", "actions.quiz_done.chance must be a number, not"),
    ("quiz_done = { count = -1 }", "actions.quiz_done.count must be a number of at least 0"),
    ("quiz_done = { count = { poison = 2 } }", "actions.quiz_done.count: unknown distribution 'poison'"),
    ("quiz_done = { cuont = 1 }", "actions.quiz_done: unknown field 'cuont' (did you mean 'count'?)"),
    ("quiz_done = 3", "actions.quiz_done must be a table like"),
    (#"{ per = "session" }"#, "actions must be a table of action names"),
    (#"[""] = { per = "session" }"#, "actions: an action needs a name"),
    ("quiz_done = { count = poisson(1/0) }", "actions.quiz_done.count.poisson is not a finite number"),
  ])
  func badActionsAreRefusedAtThePersonasLine(actions: String, expected: String) {
    let text = "-- personas\n\npersona \"p\" {\n  screens = { A = {}, B = {} },\n  actions = { \(actions) },\n}\n"
    #expect {
      try PersonaFile.parse(text, file: "personas.lua")
    } throws: { error in
      "\(error)".contains("personas.lua:3: persona 'p': " + expected)
    }
  }

  /// Two quizzes a session and one `b_done` a stay on B, one session a day: ten quizzes on
  /// day 5 (2 x 5), six of B on day 3 (2 x 3), for every user.
  @Test func actionsUnlockOnTheHandComputedDay() async throws {
    let report = try await Self.report(Self.pack, Self.personas, users: 6, days: 10)
    #expect(report.checkpoints == [1, 7, 10])
    let rows = Dictionary(uniqueKeysWithValues: report.rules.map { ($0.info.id, $0) })
    let quizzes = try #require(rows["ten-quizzes"]?.days)
    #expect(quizzes == BalanceReport.Spread(p10: 5, p50: 5, p90: 5))
    #expect(rows["six-b"]?.days == BalanceReport.Spread(p10: 3, p50: 3, p90: 3))
    #expect(rows["ten-quizzes"]?.shares == [0, 1, 1])
  }

  /// The actions are in the trace in time order, inside the sessions, and a replay of the
  /// trace through a store unlocks the same rules at the same instants.
  @Test func actionsAreInTheTraceAndReplayTheSame() throws {
    let directory = TemporaryStore()
    let path = directory.directory + "/pack.lua"
    try Self.pack.write(toFile: path, atomically: true, encoding: .utf8)
    let pack = try BalancePack(path: path)
    let personas = Self.personas.replacingOccurrences(
      of: "count = 2 }", with: "count = poisson(2), chance = 0.7 }"
    ).replacingOccurrences(
      of: "sessions = 1,", with: "sessions = poisson(2), background = { chance = 0.3, length = 30 },")
    let population = try PersonaFile.parse(personas, file: "personas.lua")
    let run = BalanceRun(pack: pack, population: population, users: 10, days: 12, seed: 7)
    for user in [0, 4] {
      let events = run.trace(user: user)
      #expect(events.map(\.jsonLine) == run.trace(user: user).map(\.jsonLine), "the same seed, the same life")
      #expect(zip(events, events.dropFirst()).allSatisfy { $0.t <= $1.t }, "user \(user) goes back in time")
      let actions = events.count { if case .action = $0.kind { true } else { false } }
      #expect(actions > 20, "user \(user): \(actions) actions")
      let (_, simulated) = try run.simulate(user: user)
      let memory = try #require(simulated.engine).unlocks
      #expect(memory["six-b"] != nil, "user \(user)")
      let store = TemporaryStore()
      let text = events.map(\.jsonLine).joined(separator: "\n")
      let configuration = try pack.configuration(base: Engine.Configuration())
      let replayed = try Replayer(storePath: store.path, configuration: configuration).run(TraceParser.parse(text))
      #expect(Set(memory.keys) == Set(replayed.unlocks.keys), "user \(user)")
      for (rule, record) in memory { #expect(record.mono == replayed.unlocks[rule]?.mono, "user \(user), \(rule)") }
    }
  }

  /// A chance of 0 performs none; a count drawn huge is capped, never a trap.
  @Test func noChanceMeansNoActionAndHugeCountsAreCapped() throws {
    let pack = try BalancePack(path: BalanceTests.path("rules/learning"))
    func actions(_ rate: String) throws -> Int {
      let text = "persona \"p\" { screens = { A = { stay = 10 } }, sessions = 1, daily = 1, actions = { x = \(rate) } }"
      let population = try PersonaFile.parse(text, file: "p.lua")
      let trace = BalanceRun(pack: pack, population: population, users: 1, days: 2, seed: 1).trace(user: 0)
      return trace.count { if case .action = $0.kind { true } else { false } }
    }
    #expect(try actions("{ chance = 0, count = 5 }") == 0)
    #expect(try actions("{ count = 3 }") == 6)
    #expect(try actions("{ count = 1e300 }") == 2 * Persona.ActionRate.maximumCount)
  }
}
