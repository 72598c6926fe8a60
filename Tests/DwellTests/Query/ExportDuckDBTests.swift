import Dwell
import DwellLua
import DwellTesting
import Foundation
import Testing

/// Exports load as-is in a real analytics engine (issue #13, item 3): the CSV and the JSON
/// of a store with every kind of data (actions and a recurring rule's earnings too), read by DuckDB's `read_csv_auto` and
/// `read_json_auto` from Python, answer queries with Dwell's own figures.
@Suite struct ExportDuckDBTests {
  static let pack = """
    achievement "daily" { every = "day", points = 7, when = { appSeconds = minutes(10) } }
    unlock "bonus-level" { title = "Bonus level, \\"gold\\"", when = { screen = "Lessons", seconds = minutes(30) } }
    local c = plugin "counter"
    c.on("session_start", function(u)
      c.state.n = (c.state.n or 0) + 1
      c.award(5, "a session, with a comma")
    end)
    """

  /// Runs a Python program with DuckDB; its last line of output is a JSON object.
  private func duckdb(_ program: String, _ arguments: [String]) throws -> [String: Any] {
    let result = try Subprocess.run("/usr/bin/env", ["python3", "-c", program] + arguments, timeout: .seconds(120))
    try #require(result.status == 0, "python3 failed: \(result.stderr)")
    let line = try #require(result.stdout.split(separator: "\n").last)
    return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
  }

  @Test(.enabled(if: TestEnvironment.hasDuckDB, "needs python3 with the duckdb package (pip install duckdb)"))
  func csvAndJSONLoadInDuckDBWithDwellsFigures() async throws {
    let sim = TrackerSimulation()
    let tracker = sim.tracker
    try tracker.setRules(pack: try LuaRulePack(scripts: [("counter.lua", Self.pack)]))
    for day in 0..<3 {
      if day > 0 { sim.nextDay() }
      tracker.record(.active)
      sim.use("Lessons", for: .minutes(12))
      sim.use("Home, \"main\"", for: .minutes(3))
      tracker.record(.action("quiz_done", count: day + 1))
      tracker.record(.background)
      sim.wait(.hours(1))
    }
    let folder = TemporaryStore()
    let csvPath = folder.path + ".csv"
    let jsonPath = folder.path + ".json"
    // Streamed to file handles, pages of at most 10,000 rows, as an app writes them.
    for (format, path) in [(ExportFormat.csv, csvPath), (.json, jsonPath)] {
      #expect(FileManager.default.createFile(atPath: path, contents: nil))
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      try await tracker.export(format, to: handle)
      try handle.close()
    }
    defer {
      try? FileManager.default.removeItem(atPath: csvPath)
      try? FileManager.default.removeItem(atPath: jsonPath)
    }
    let program = """
      import duckdb, json, sys
      csv, doc = sys.argv[1], sys.argv[2]
      con = duckdb.connect()
      def one(q): return con.execute(q).fetchone()[0]
      c = f"read_csv_auto('{csv}')"
      j = f"read_json_auto('{doc}')"
      out = {
        "csv_lessons": one(f"select sum(seconds) from {c} where kind = 'day' and screen = 'Lessons'"),
        "csv_app": one(f"select sum(seconds) from {c} where kind = 'day' and screen is null"),
        "csv_home_visits": one(f"select count(*) from {c} where kind = 'visit' and screen = 'Home, \\"main\\"'"),
        "csv_days": one(f"select count(distinct day) from {c} where kind = 'day'"),
        "csv_title": one(f"select title from {c} where kind = 'unlock' and rule = 'bonus-level'"),
        "csv_unlock_points": one(f"select sum(points) from {c} where kind = 'unlock'"),
        "csv_award_points": one(f"select sum(points) from {c} where kind = 'award'"),
        "csv_reason": one(f"select min(reason) from {c} where kind = 'award'"),
        "csv_state": one(f"select state from {c} where kind = 'plugin-state'"),
        "csv_visit_seconds": one(f"select sum(seconds) from {c} where kind = 'visit' and screen = 'Lessons'"),
        "json_lessons": one(f"select sum(d.seconds) from (select unnest(days) as d from {j}) where d.screen = 'Lessons'"),
        "json_home_visits": one(f"select count(*) from (select unnest(visits) as v from {j}) where v.screen = 'Home, \\"main\\"'"),
        "json_title": one(f"select u.title from (select unnest(unlocks) as u from {j})"),
        "json_award_points": one(f"select sum(a.points) from (select unnest(awards) as a from {j})"),
        "json_state": one(f"select s.state from (select unnest(pluginStates) as s from {j})"),
        "json_sessions": one(f"select sessions from {j}"),
        "csv_sessions": one(f"select count from {c} where kind = 'sessions'"),
        "csv_lessons_visits": one(f"select sum(count) from {c} where kind = 'day' and screen = 'Lessons'"),
        "csv_quiz": one(f"select sum(count) from {c} where kind = 'action' and action = 'quiz_done'"),
        "csv_quiz_days": one(f"select count(distinct day) from {c} where kind = 'action'"),
        "csv_earnings": one(f"select count(distinct period) from {c} where kind = 'earning' and rule = 'daily'"),
        "csv_earning_points": one(f"select sum(points) from {c} where kind = 'earning'"),
        "csv_earned_at": one(f"select count(*) from {c} where kind = 'earning' and started_at is not null"),
        "json_quiz": one(f"select sum(a.count) from (select unnest(actions) as a from {j}) where a.action = 'quiz_done'"),
        "json_earnings": one(f"select count(distinct e.period) from (select unnest(earnings) as e from {j})"),
        "json_earning_points": one(f"select sum(e.points) from (select unnest(earnings) as e from {j})"),
        "json_lessons_visits": one(f"select sum(d.visits) from (select unnest(days) as d from {j}) where d.screen = 'Lessons'"),
      }
      print(json.dumps(out, default=str))
      """
    let answers = try duckdb(program, [csvPath, jsonPath])
    func number(_ key: String) -> Double { (answers[key] as? NSNumber)?.doubleValue ?? -1 }
    let lessons = tracker.time(.screen("Lessons")).seconds
    #expect(lessons == 36 * 60)
    #expect(abs(number("csv_lessons") - lessons) < 0.001)
    #expect(abs(number("json_lessons") - lessons) < 0.001)
    #expect(abs(number("csv_app") - tracker.time(.app).seconds) < 0.001)
    #expect(abs(number("csv_visit_seconds") - lessons) < 0.001)
    #expect(number("csv_home_visits") == Double(tracker.visits("Home, \"main\"")))
    #expect(number("json_home_visits") == 3)
    #expect(number("csv_days") == 3)
    #expect(answers["csv_title"] as? String == "Bonus level, \"gold\"")
    #expect(answers["json_title"] as? String == "Bonus level, \"gold\"")
    #expect(number("csv_unlock_points") == 0)
    let earned = tracker.points - 10  // two sessions after the pack was set, 5 points each
    #expect(number("csv_award_points") == 10)
    #expect(number("json_award_points") == 10)
    #expect(earned == 3 * 7, "the daily rule earned on each of the 3 days")
    #expect(number("csv_earning_points") == Double(earned))
    #expect(number("json_earning_points") == Double(earned))
    #expect(number("csv_earnings") == 3)
    #expect(number("json_earnings") == 3)
    #expect(number("csv_earned_at") == 3)
    let quizzes = tracker.count(ofAction: "quiz_done")
    #expect(quizzes == 1 + 2 + 3)
    #expect(number("csv_quiz") == Double(quizzes))
    #expect(number("json_quiz") == Double(quizzes))
    #expect(number("csv_quiz_days") == 3)
    #expect(answers["csv_reason"] as? String == "a session, with a comma")
    #expect(answers["csv_state"] as? String == #"{"n":2}"#)
    #expect(answers["json_state"] as? String == #"{"n":2}"#)
    #expect(number("json_sessions") == Double(tracker.sessions))
    #expect(number("csv_sessions") == Double(tracker.sessions))
    #expect(tracker.visits("Lessons") == 3)
    #expect(number("csv_lessons_visits") == Double(tracker.visits("Lessons")))
    #expect(number("json_lessons_visits") == Double(tracker.visits("Lessons")))
  }
}
