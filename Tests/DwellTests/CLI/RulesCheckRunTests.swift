// dwell rules check runs every check and plugin through a simulated week: an error that
// would appear only on a later day (a nil compared, a wrong type after midnight or in
// another time zone) is reported with its file and line; --no-run skips the week.
import Dwell
import Foundation
import Testing

@Suite struct RulesCheckRunTests {
  static let pack = """
    unlock "calm" { when = { screen = "Meditate", seconds = minutes(10) } }
    local streak = plugin "streak"
    streak.on("day_start", function(u, day)
      if streak.state.last < day then streak.state.last = day end
    end)
    local breaths = plugin "breaths"
    breaths.on("screen_enter", function(u, screen)
      if screen == "Breathe" then breaths.state.n = breaths.state.n + 1 end
    end)
    """

  @Test func aPluginsRuntimeErrorsAreReportedWithFileAndLine() throws {
    let dir = TemporaryStore()
    let path = try CommandLineTests.write(Self.pack, to: dir, name: "p.lua")
    let run = try CommandLineTests.dwell(["rules", "check", path])
    #expect(run.status == 1)
    #expect(run.stdout.contains("error: plugin 'streak': p.lua:4: attempt to compare nil with string"), "\(run.stdout)")
    // "Breathe" is only compared in the script: the week opens it too.
    #expect(run.stdout.contains("error: plugin 'breaths': p.lua:8: attempt to perform arithmetic"), "\(run.stdout)")
    #expect(run.stderr.contains("2 errors in a simulated week"), "\(run.stderr)")
    let skipped = try CommandLineTests.dwell(["rules", "check", "--no-run", path])
    #expect(skipped.status == 0)
    #expect(!skipped.stdout.contains("error:"))
  }

  @Test func theSamplePacksRunAWeekWithoutErrors() throws {
    for pack in ["learning", "game", "reading"] {
      let run = try CommandLineTests.dwell(["rules", "check", "rules/" + pack])
      #expect(run.status == 0, "\(pack): \(run.stdout) \(run.stderr)")
      #expect(run.stdout.contains("ran a simulated week: no check or plugin raised an error"), "\(pack)")
    }
  }
}
