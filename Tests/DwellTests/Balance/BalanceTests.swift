import DwellTesting
import Foundation
import Testing

// `dwell balance`: personas, the generated lives, the engine in memory against replay, the reports.
@testable import Dwell
@testable import DwellBalance

@Suite struct BalanceTests {
  static let root = TestPaths.packageRoot.path
  static func path(_ relative: String) -> String { root + "/" + relative }

  static let personas = """
    local screens = {
      Home = { stay = lognormal(15, 0.5), next = { Lessons = 3, Quiz = 1 } },
      Lessons = { stay = lognormal(minutes(2), 0.6), next = { Home = 1, Quiz = 1 } },
      Quiz = { stay = uniform(30, 90), next = { Home = 1 } },
    }
    persona "steady" { share = 3, daily = 0.9, sessions = poisson(2), sessionLength = normal(minutes(3), 60),
                       screens = screens, start = "Home", churn = 0 }
    persona "fleeting" { share = 1, daily = 0.3, comeback = 0.1, sessions = 1, sessionLength = 90,
                         screens = screens, idle = { chance = 0.2, length = 120 },
                         background = { chance = 0.2, length = lognormal(30, 1) },
                         churn = { first = 0.5, factor = 1.1, floor = 0.2 } }
    """

  static func population() throws -> Population { try PersonaFile.parse(personas, file: "personas.lua") }

  // MARK: Persona files

  @Test func shippedPersonaFilesLoad() throws {
    for pack in ["learning", "game", "reading"] {
      let population = try PersonaFile.load(Self.path("rules/\(pack)/balance/personas.lua"))
      #expect(population.personas.count >= 3, "\(pack)")
      _ = try BalancePack(path: Self.path("rules/\(pack)"))
    }
  }

  @Test func personaFieldsAreRead() throws {
    let population = try Self.population()
    #expect(population.personas.map(\.name) == ["steady", "fleeting"])
    let steady = population.personas[0]
    #expect(steady.share == 3)
    #expect(steady.sessions == .poisson(2))
    #expect(steady.sessionLength == .normal(mean: 180, deviation: 60))
    #expect(steady.screens.map(\.name) == ["Home", "Lessons", "Quiz"])
    #expect(steady.screens[0].next.map(\.weight) == [3, 1])
    #expect(steady.churn.chance(afterDay: 10) == 0)
    let fleeting = population.personas[1]
    #expect(fleeting.churn.chance(afterDay: 1) == 0.5)
    #expect(abs(fleeting.churn.chance(afterDay: 3) - 0.605) < 1e-9)
    #expect(fleeting.background.chance == 0.2)
  }

  @Test(arguments: [
    ("persona \"a\" { screens = { A = {} }, dayly = 0.5 }", "unknown field 'dayly' (did you mean 'daily'?)"),
    ("persona \"a\" { screens = { A = {} }, sessionLenght = 300 }", "(did you mean 'sessionLength'?)"),
    (
      "persona \"a\" { screens = { Home = {}, Lessons = { next = { Lesson = 1 } } } }",
      "'Lesson' is not one of the screens (did you mean 'Lessons'?)"
    ),
    ("persona \"a\" { screens = { Home = {} }, start = \"Hom\" }", "(Home) (did you mean 'Home'?)"),
    ("persona \"a\" { screens = { A = { stya = 5 } } }", "screens.A: unknown field 'stya' (did you mean 'stay'?)"),
    ("persona \"a\" { screens = { A = {} }, weekdays = { sta = 0.5 } }", "unknown day 'sta' (did you mean 'sat'?)"),
    (
      "persona \"a\" { screens = { A = {} }, churn = { frist = 0.3 } }",
      "churn: unknown field 'frist' (did you mean 'first'?)"
    ),
    (
      "persona \"a\" { screens = { A = {} }, idle = { chanse = 0.1 } }",
      "idle: unknown field 'chanse' (did you mean 'chance'?)"
    ),
    (
      "persona \"a\" { screens = { A = {} }, sessions = { poison = 2 } }",
      "sessions: unknown distribution 'poison' (did you mean 'poisson'?)"
    ),
    ("persona \"a\" { screens = { A = {} }, daily = 1.5 }", "daily must be between 0 and 1"),
    ("persona \"a\" { screens = { A = { next = { B = 1 } } } }", "'B' is not one of the screens"),
    ("persona \"a\" { screens = { A = {} }, start = \"B\" }", "start must name one of the screens"),
    ("persona \"a\" { screens = { A = {} }, sessions = -1 }", "sessions must be a number"),
    ("persona \"a\" { screens = { A = {} }, timeOfDay = { {9, 8, 1} } }", "timeOfDay"),
    ("persona \"a\" { }", "screens must be a table"),
    ("persona \"a\" { screens = { A = {} } }\npersona \"a\" { screens = { A = {} } }", "defined twice"),
    ("\npersona \"a\" {", "personas.lua:2"),
    ("-- nothing", "no persona"),
    // A number that is not finite: the persona's line, the persona and the field.
    (
      "-- NaN\npersona \"a\" { screens = { A = {} },\n  share = 0/0 }",
      "personas.lua:2: persona 'a': share is not a finite number"
    ),
    (
      "persona \"a\" { screens = { A = {} }, sessions = poisson(1/0) }",
      "persona 'a': sessions.poisson is not a finite number"
    ),
    (
      "\n\npersona \"b\" { screens = { A = { stay = -1/0 } } }",
      "personas.lua:3: persona 'b': screens.A.stay is not a finite number"
    ),
    ("persona \"a\" { screens = { A = {} }, weekdays = { sat = 1/0 } }", "weekdays.sat is not a finite number"),
    // A duration under half a second (milliseconds meant as seconds) would multiply the events.
    (
      "persona \"a\" { screens = { A = { stay = 1e-300 } } }",
      "screens.A.stay is 1e-300 s, under the shortest duration of 0.5 s"
    ),
    ("persona \"a\" { screens = { A = {} }, touches = lognormal(0.01, 1) }", "touches is 0.01 s, under the shortest"),
    ("persona \"a\" { screens = { A = {} }, sessionLength = uniform(0, 0.2) }", "sessionLength is 0.1 s, under"),
    ("persona \"a\" { screens = { A = {} }, idle = { chance = 0.1, length = 0 } }", "idle.length is 0 s, under"),
    (
      "persona \"a\" { screens = { A = {} }, background = { chance = 0.1, length = normal(0.3, 1) } }",
      "background.length is 0.3 s"
    ),
    ("unlock \"x\" { when = { sessions = 1 } }\npersona \"a\" { screens = { A = {} } }", "personas only"),
  ])
  func badPersonaFilesAreRefusedWithTheReason(text: String, expected: String) {
    #expect {
      try PersonaFile.parse(text, file: "personas.lua")
    } throws: { error in
      "\(error)".contains(expected) && "\(error)".contains("personas.lua")
    }
  }

  // MARK: Generated lives

  /// Any finite number a persona may give makes a life: sessions = 1e300 a day (taken as
  /// the most, 48) used to trap converting the draw to a count.
  @Test(arguments: ["1e300", "normal(1e300, 1)", "lognormal(1e300, 5)", "uniform(0, 1e308)"])
  func hugeSessionCountsMakeALifeOfTheMostSessions(sessions: String) throws {
    let text = "persona \"a\" { screens = { A = { stay = 10 } }, sessions = \(sessions), daily = 1 }"
    let population = try PersonaFile.parse(text, file: "personas.lua")
    let pack = try BalancePack(path: Self.path("rules/learning"))
    let trace = BalanceRun(pack: pack, population: population, users: 1, days: 1, seed: 1).trace(user: 0)
    #expect(trace.count { if case .foreground = $0.kind { true } else { false } } == 48)
  }

  @Test func livesAreDeterministicOrderedAndFollowThePersonas() throws {
    let population = try Self.population()
    let pack = try BalancePack(path: Self.path("rules/learning"))
    let run = BalanceRun(pack: pack, population: population, users: 2000, days: 30, seed: 42)
    let a = run.trace(user: 17)
    #expect(a.map(\.jsonLine) == run.trace(user: 17).map(\.jsonLine))
    #expect(a.map(\.jsonLine) != run.trace(user: 18).map(\.jsonLine))
    var other = run
    other.seed = 43
    #expect(a.map(\.jsonLine) != other.trace(user: 17).map(\.jsonLine))
    for user in 0..<50 {
      let events = run.trace(user: user)
      #expect(zip(events, events.dropFirst()).allSatisfy { $0.t <= $1.t }, "user \(user) goes back in time")
      guard case .launch = events.first?.kind, case .terminate = events.last?.kind else {
        Issue.record("user \(user) does not start with launch and end with terminate")
        continue
      }
    }
    // Shares 3:1 over 2,000 users.
    var counts = [0, 0]
    for user in 0..<2000 { counts[UserLife(index: user, seed: 42, population: population, days: 1).personaIndex] += 1 }
    #expect(abs(Double(counts[0]) / 2000 - 0.75) < 0.04, "\(counts)")
  }

  // MARK: The real engine

  /// The simulation is the engine, not a copy: a generated user's trace replayed through
  /// `Replayer` on a SQLite store unlocks the same rules at the same instants.
  @Test func unlockInstantsEqualAReplayOfTheSameTrace() throws {
    let population = try Self.population()
    let pack = try BalancePack(path: Self.path("rules/learning"))
    let run = BalanceRun(pack: pack, population: population, users: 40, days: 12, seed: 5)
    var compared = 0
    for user in [0, 3, 8] {
      let (_, simulated) = try run.simulate(user: user)
      let memory = try #require(simulated.engine).unlocks
      let text = run.trace(user: user).map(\.jsonLine).joined(separator: "\n")
      let store = TemporaryStore()
      let configuration = try pack.configuration(base: Engine.Configuration())
      let replayed = try Replayer(storePath: store.path, configuration: configuration).run(TraceParser.parse(text))
      let fromStore = replayed.unlocks
      #expect(Set(memory.keys) == Set(fromStore.keys), "user \(user)")
      for (rule, record) in memory {
        #expect(record.mono == fromStore[rule]?.mono, "user \(user), \(rule)")
        #expect(record.wall == fromStore[rule]?.wall, "user \(user), \(rule)")
      }
      #expect(replayed.points == (simulated.dayEnds.last?.points ?? -1), "user \(user)")
      compared += memory.count
    }
    #expect(compared >= 6, "too few unlocks to compare")
  }

  // MARK: Reports

  @Test func sameSeedAnyThreadsGivesIdenticalJSON() async throws {
    let population = try Self.population()
    let pack = try BalancePack(path: Self.path("rules/learning"))
    var texts: [String] = []
    for threads in [1, 3] {
      let run = BalanceRun(pack: pack, population: population, users: 12, days: 8, seed: 9, threads: threads)
      let report = BalanceReport(stats: try await run.run(), pack: pack, population: population, seed: 9)
      texts.append(report.json.rendered(pretty: true) + report.csv + report.table() + report.html)
    }
    #expect(texts[0] == texts[1])
  }

  @Test func reportsFlagRulesNobodyAndEverybodyUnlocks() async throws {
    let directory = TemporaryStore()
    let rulesPath = directory.directory + "/rules.json"
    try """
    [{"id":"first-home","when":{"screen":"Home","visits":1}},
     {"id":"lessons-hour","when":{"screen":"Lessons","seconds":3600}},
     {"id":"ten-thousand-hours","when":{"appSeconds":36000000}}]
    """.write(toFile: rulesPath, atomically: true, encoding: .utf8)
    let population = try Self.population()
    let pack = try BalancePack(path: rulesPath)
    let run = BalanceRun(pack: pack, population: population, users: 150, days: 31, seed: 3, threads: 2)
    let report = BalanceReport(stats: try await run.run(), pack: pack, population: population, seed: 3)
    #expect(report.users == 150)
    #expect(report.checkpoints == [1, 7, 30, 31])
    let rows = Dictionary(uniqueKeysWithValues: report.rules.map { ($0.info.id, $0) })
    #expect(rows["first-home"]?.everyoneOnDayOne == true)
    #expect(rows["ten-thousand-hours"]?.never == true)
    let hour = try #require(rows["lessons-hour"])
    #expect(!hour.never && !hour.everyoneOnDayOne)
    #expect(zip(hour.shares, hour.shares.dropFirst()).allSatisfy { $0 <= $1 })
    #expect(hour.curve.last == hour.shares.last)
    let days = try #require(hour.days)
    #expect(days.p10 <= days.p50 && days.p50 <= days.p90 && days.p10 >= 1 && days.p90 <= 31)
    let minutes = try #require(hour.minutes)
    // An hour in Lessons takes at least an hour of active time.
    #expect(minutes.p10 >= 60)
    // The steady persona practises far more than the fleeting one.
    #expect((hour.personaShares[0].last ?? 0) > (hour.personaShares[1].last ?? 1))
    let table = report.table()
    #expect(table.contains("! never unlocked by any simulated user: ten-thousand-hours"))
    #expect(table.contains("* every user has it on day 1: first-home"))
    for line in table.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
    #expect(report.retention[0] == 1)
  }

  @Test func levelsAndNotificationsOfTheLearningPack() async throws {
    let population = try Self.population()
    let pack = try BalancePack(path: Self.path("rules/learning"))
    #expect(pack.stateful)
    let run = BalanceRun(pack: pack, population: population, users: 16, days: 10, seed: 1, threads: 2)
    let report = BalanceReport(stats: try await run.run(), pack: pack, population: population, seed: 1)
    #expect(report.levels == ["Beginner", "Learner", "Scholar", "Master"])
    for day in report.levelShares { #expect(abs(day.reduce(0, +) - 1) < 1e-9) }
    #expect(report.levelShares[9][0] < 1, "nobody ever levelled up")
    #expect(report.notifications.contains { $0.key.hasPrefix("night-owl: ") || $0.key.hasPrefix("weekend-warrior: ") })
    #expect(report.scriptErrors == 0)
  }

  @Test func comparingTwoVersionsShowsTheDifference() async throws {
    let directory = TemporaryStore()
    let old = directory.directory + "/old.json"
    let new = directory.directory + "/new.json"
    try #"[{"id":"lessons","when":{"screen":"Lessons","seconds":1800}}]"#.write(
      toFile: old, atomically: true, encoding: .utf8)
    try
      #"[{"id":"lessons","when":{"screen":"Lessons","seconds":600}},{"id":"quiz","when":{"screen":"Quiz","visits":3}}]"#
      .write(toFile: new, atomically: true, encoding: .utf8)
    let population = try Self.population()
    var reports: [BalanceReport] = []
    for path in [old, new] {
      let pack = try BalancePack(path: path)
      let run = BalanceRun(pack: pack, population: population, users: 100, days: 14, seed: 8, threads: 2)
      reports.append(BalanceReport(stats: try await run.run(), pack: pack, population: population, seed: 8))
    }
    let comparison = BalanceComparison(old: reports[0], new: reports[1])
    #expect(comparison.ids == ["lessons", "quiz"])
    let a = try #require(reports[0].rules.first?.shares.last)
    let b = try #require(reports[1].rules.first?.shares.last)
    #expect(b > a, "a lower threshold must be reached by more users")
    #expect(comparison.table.contains(BalanceComparison.difference(a, b)))
    #expect(comparison.table.contains("absent"))
    for line in comparison.table.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
    // The page compares too: both packs named, the old curve dashed beside the new one in
    // the same colour, a rule only the new pack has solid alone, and the table.
    let page = comparison.html
    #expect(page.contains("old.json") && page.contains("new.json"))
    let lines = page.components(separatedBy: "<polyline").dropFirst().map {
      $0.components(separatedBy: "</polyline>")[0]
    }
    let dashed = lines.filter { $0.contains("stroke-dasharray") }
    #expect(dashed.count == 1 && dashed.allSatisfy { $0.contains("<title>lessons (old)</title>") }, "\(dashed)")
    let colour = { (line: String) in line.components(separatedBy: "stroke=\"").dropFirst().first?.prefix(7) }
    let lessons = lines.filter { $0.contains("<title>lessons</title>") }
    #expect(lessons.count == 1 && colour(lessons[0]) == colour(dashed[0]))
    #expect(lines.contains { $0.contains("<title>quiz</title>") && !$0.contains("stroke-dasharray") })
    #expect(page.contains(BalanceReport.escape(comparison.table)))
  }

  // MARK: The command

  @Test func commandPrintsTheTableAndTheSameJSONWithAnyThreads() throws {
    let directory = TemporaryStore()
    let personas = try CommandLineTests.write(Self.personas, to: directory, name: "personas.lua")
    let common = ["balance", Self.path("rules/learning"), "--personas", personas, "--users", "12", "--days", "7"]
    let table = try CommandLineTests.dwell(common + ["--html", directory.directory + "/b.html"])
    #expect(table.status == 0, "\(table.stderr)")
    #expect(table.stdout.contains("RULE") && table.stdout.contains("first-lesson") && table.stdout.contains("PERSONA"))
    for line in table.stdout.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
    #expect(FileManager.default.fileExists(atPath: directory.directory + "/b.html"))
    let one = try CommandLineTests.dwell(common + ["--json", "--threads", "1"])
    let three = try CommandLineTests.dwell(common + ["--json", "--threads", "3"])
    #expect(one.status == 0 && three.status == 0)
    #expect(one.stdout == three.stdout)
    let json = try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any]
    #expect(json?["users"] as? Int == 12)
    let ruleCount = try BalancePack(path: Self.path("rules/learning")).rules.count
    #expect(ruleCount >= 10)
    #expect((json?["rules"] as? [[String: Any]])?.count == ruleCount)
    let csv = try CommandLineTests.dwell(common + ["--csv", "--seed", "4"])
    #expect(csv.stdout.hasPrefix("rule,title,achievement,tier,points,persona,users,share_day1,share_day7,"))
    let trace = directory.directory + "/user.jsonl"
    #expect(try CommandLineTests.dwell(common + ["--export-trace", "3:" + trace, "--csv"]).status == 0)
    let replayed = try CommandLineTests.dwell(["replay", trace, "--rules", Self.path("rules/learning"), "--json"])
    #expect(replayed.status == 0, "\(replayed.stderr)")
  }

  @Test func commandComparesTwoVersionsAndRefusesBadInput() throws {
    let directory = TemporaryStore()
    let personas = try CommandLineTests.write(Self.personas, to: directory, name: "personas.lua")
    let old = try CommandLineTests.write(
      #"[{"id":"lessons","when":{"screen":"Lessons","seconds":1800}}]"#, to: directory, name: "old.json")
    let new = try CommandLineTests.write(
      #"[{"id":"lessons","when":{"screen":"Lessons","seconds":600}}]"#, to: directory, name: "new.json")
    let compared = try CommandLineTests.dwell([
      "balance", old, new, "--personas", personas, "--users", "40", "--days", "10",
    ])
    #expect(compared.status == 0, "\(compared.stderr)")
    #expect(compared.stdout.contains("lessons") && compared.stdout.contains("D10 OLD"))
    let missing = try CommandLineTests.dwell(["balance", old, "--users", "5"])
    #expect(missing.status == 1 && missing.stderr.contains("personas"))
    let badUsers = try CommandLineTests.dwell(["balance", old, "--personas", personas, "--users", "0"])
    #expect(badUsers.status == 2)
    let bad = try CommandLineTests.write(
      "persona \"x\" { screens = { A = {} }, churn = 2 }", to: directory, name: "bad.lua")
    let refused = try CommandLineTests.dwell(["balance", old, "--personas", bad])
    #expect(refused.status == 1 && refused.stderr.contains("persona 'x': churn must be between 0 and 1"))
  }
}
