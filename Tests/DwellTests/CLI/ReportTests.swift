// dwell report in the terminal and as HTML.
import Dwell
import DwellTesting
import Foundation
import Testing

@Suite struct ReportTests {
  @Test func theTerminalReportAndTheHTMLPage() throws {
    let dir = TemporaryStore()
    let trace = try CommandLineTests.write(
      TraceGenerator(days: 20, seed: 9).events().map(\.jsonLine).joined(separator: "\n"), to: dir, name: "t.jsonl")
    #expect(try CommandLineTests.dwell(["replay", trace, "--store", dir.path]).status == 0)
    let html = dir.directory + "/report.html"
    let run = try CommandLineTests.dwell(["report", dir.path, "--html", html, "--days", "5"])
    #expect(run.status == 0)
    #expect(run.stdout.contains("App today"))
    #expect(run.stdout.contains("Screen") && run.stdout.contains("Average"))
    #expect(run.stdout.contains("App, last 5 days"))
    #expect(
      run.stdout.split(separator: "\n").filter { !$0.hasPrefix("HTML report written") }.allSatisfy { $0.count <= 80 })
    #expect(!run.stdout.contains("\u{1B}["))
    let page = try String(contentsOfFile: html, encoding: .utf8)
    // Self-contained: no scripts, no external resources.
    #expect(!page.contains("<script"))
    #expect(!page.contains("http://") && !page.contains("https://") && !page.contains("src="))
    for section in ["Time per day, by screen", "Share of time by screen", "Time of day", "Active days", "Unlocks"] {
      #expect(page.contains("<h2>\(section)"))
    }
    #expect(page.components(separatedBy: "<svg").count - 1 == 4)
    #expect(page.contains("prefers-color-scheme: dark"))
    let screen = try CommandLineTests.dwell(["report", dir.path, "--screen", "Lessons"])
    #expect(screen.stdout.contains("Lessons today"))
    #expect(try CommandLineTests.dwell(["report", dir.path, "--screen", "Nowhere"]).status == 1)
  }

  /// The terminal report and the HTML page round a time to the same minute.
  @Test func bothReportsRoundToTheSameMinute() throws {
    let dir = TemporaryStore()
    let clock = ManualClock()
    let wall = ManualWallClock(
      clock: clock, wall: parseWall("2026-05-04T08:00:00Z"), timeZone: TimeZone(identifier: "UTC") ?? .current)
    let engine = try Engine(store: Dwell.Store(path: dir.path), clock: clock, wallClock: wall, scheduler: clock)
    engine.record(.active)
    engine.record(.appear(screen: "Home", id: ScreenInstance("h")))
    clock.advance(by: .seconds(3 * 3600 + 19 * 60 + 40))
    engine.terminate()
    let html = dir.directory + "/r.html"
    let run = try CommandLineTests.dwell(["report", dir.path, "--html", html])
    #expect(run.status == 0)
    let home = run.stdout.split(separator: "\n").filter { $0.contains("Home") }
    #expect(home.contains { $0.contains("3h 20m") }, "\(run.stdout)")
    #expect(!run.stdout.contains("3h 19m"), "\(run.stdout)")
    let page = try String(contentsOfFile: html, encoding: .utf8)
    #expect(page.contains("3 h 20 min") && !page.contains("3 h 19 min"))
  }

  @Test func anEmptyStoreStillReports() throws {
    let dir = TemporaryStore()
    _ = try Dwell.Store(path: dir.path)
    let html = dir.directory + "/r.html"
    let run = try CommandLineTests.dwell(["report", dir.path, "--html", html])
    #expect(run.status == 0)
    #expect(try String(contentsOfFile: html, encoding: .utf8).contains("No time recorded yet."))
  }
}
