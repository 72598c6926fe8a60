import Dwell
import DwellTesting
import Testing

/// One test per accounting rule of the contract (Sources/Dwell/Dwell.docc/Accounting.md),
/// driven by a manual clock.
@Suite struct AccountingTests {
  @Test func appTimeAccruesOnlyWhileActive() throws {
    let rig = Rig()
    let engine = try rig.launch()
    rig.advance(5)
    engine.record(.active)
    rig.advance(100)
    engine.record(.inactive)
    rig.advance(50)
    engine.record(.active)
    rig.advance(10)
    engine.record(.background)
    rig.advance(1000)
    #expect(seconds(engine.report().app.time) == 110)
  }

  @Test func screenTimeIsTheUnionOfInstancesAndPausesInBackground() throws {
    let rig = Rig()
    let engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "Notes", id: ScreenInstance("w1")))
    rig.advance(100)
    engine.record(.appear(screen: "Notes", id: ScreenInstance("w2")))
    engine.record(.appear(screen: "Sheet", id: ScreenInstance("s")))
    rig.advance(100)
    engine.record(.disappear(id: ScreenInstance("w1")))
    engine.record(.background)
    rig.advance(500)
    engine.record(.active)
    rig.advance(50)
    let report = engine.report()
    #expect(seconds(report.screens["Notes"]!.time) == 250)
    #expect(seconds(report.screens["Sheet"]!.time) == 150)
    #expect(report.screens["Notes"]!.visits == 2)
    #expect(seconds(report.app.time) == 250)
  }

  @Test func repeatedAppearAndStrayDisappearAreIgnored() throws {
    let rig = Rig()
    let engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "Home", id: ScreenInstance("h")))
    engine.record(.appear(screen: "Home", id: ScreenInstance("h")))
    engine.record(.disappear(id: ScreenInstance("nobody")))
    rig.advance(10)
    #expect(engine.report().screens["Home"]?.visits == 1)
    #expect(seconds(engine.report().screens["Home"]!.time) == 10)
  }

  @Test func idleTimeoutStopsAccrualUntilTheNextReset() throws {
    let rig = Rig(configuration: .init(idleTimeout: .seconds(60)))
    let engine = try rig.launch()
    engine.record(.appear(screen: "Feed", id: ScreenInstance("f")))
    engine.record(.active)
    rig.advance(500)
    #expect(seconds(engine.report().app.time) == 60)
    engine.record(.interact)
    rig.advance(30)
    #expect(seconds(engine.report().app.time) == 90)
    #expect(seconds(engine.report().screens["Feed"]!.time) == 90)
  }

  @Test func daysSplitExactlyAtLocalMidnight() throws {
    // 23:59:30 in Berlin.
    let rig = Rig(wall: "2026-12-31T22:59:30Z", zone: "Europe/Berlin")
    let engine = try rig.launch()
    engine.record(.active)
    rig.advance(90)
    let days = engine.report().app.days
    #expect(seconds(days[day("2026-12-31")]!) == 30)
    #expect(seconds(days[day("2027-01-01")]!) == 60)
    #expect(engine.report().longestStreak == 2)
  }

  @Test func changingTheWallClockNeverChangesDurations() throws {
    let rig = Rig(wall: "2026-07-01T10:00:00Z", zone: "Europe/London")
    let engine = try rig.launch()
    engine.record(.active)
    rig.advance(300)
    let back = parseWall("2026-06-01T10:00:00Z")
    rig.wall.set(back)
    engine.record(.clockChanged(wall: back, timeZone: nil))
    rig.advance(300)
    let report = engine.report()
    #expect(seconds(report.app.time) == 600)
    #expect(seconds(report.app.days[day("2026-07-01")]!) == 300)
    #expect(seconds(report.app.days[day("2026-06-01")]!) == 300)
    #expect(report.longestStreak == 1)
  }

  @Test func sessionsStartAfterTheTimeoutAcrossLaunches() throws {
    let rig = Rig()
    var engine = try rig.launch()
    engine.record(.active)
    rig.advance(10)
    engine.record(.background)
    rig.advance(1799.999)
    engine.record(.active)  // 1799.999 s after the stop: same session
    rig.advance(10)
    engine.terminate()
    rig.advance(1800)
    engine = try rig.launch()
    engine.record(.active)  // exactly 1800 s: a new session
    #expect(engine.report().sessions == 2)
  }

  @Test func aRebootFallsBackToTheWallClockForTheSessionGap() throws {
    let rig = Rig()
    var engine = try rig.launch()
    engine.record(.active)
    rig.advance(10)
    engine.terminate()
    rig.clock.reboot(bootSession: "second-boot")
    // The monotonic clock restarted at zero; only 60 s of wall time passed.
    rig.wall.set(WallInstant(nanosecondsSince1970: parseWall("2026-05-04T08:01:10Z").nanosecondsSince1970))
    engine = try rig.launch()
    engine.record(.active)
    rig.advance(5)
    let report = engine.report()
    #expect(report.sessions == 1)
    #expect(seconds(report.app.time) == 15)
  }

  @Test func eventsOutOfOrderAreClampedNotNegative() throws {
    let rig = Rig()
    let engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "A", id: ScreenInstance("a")))
    rig.advance(3)
    engine.record(.disappear(id: ScreenInstance("a")))
    let report = engine.report()
    #expect(report.screens["A"]!.time >= .zero)
    #expect(report.screens["A"]!.time <= report.app.time)
  }
}
