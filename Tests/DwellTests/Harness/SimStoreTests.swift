import DwellHarness
import DwellTesting
import Foundation
import Testing

/// `dwell sim --store S` on a store that does not open says so at start and refuses to run:
/// it said "app active", then "the app is not running" at the first command, and the cause
/// only after 'launch'.
@Suite struct SimStoreTests {
  @Test(arguments: ["not a database", String(repeating: "x", count: 8192)])
  func aDamagedStoreIsSaidAtStart(content: String) throws {
    let dir = try LineEndTests().pack()
    let store = try CommandLineTests.write(content, to: dir, name: "usage.sqlite")
    let script = try CommandLineTests.write("status\nopen Lessons\n", to: dir, name: "s.txt")
    let run = try CommandLineTests.dwell(["sim", "--rules", dir.directory, "--store", store, "--script", script])
    #expect(run.status == 1)
    #expect(run.stderr.contains("the store \(store) cannot be used"), "\(run.stderr)")
    #expect(run.stderr.contains("dwell check"), "\(run.stderr)")
    #expect(!run.stdout.contains("app active"), "\(run.stdout)")
    #expect(FileManager.default.contents(atPath: store) == Data(content.utf8), "the store was changed")
  }

  /// In process too: the simulator does not start on it.
  @Test func theSimulatorDoesNotStartOnADamagedStore() throws {
    let dir = TemporaryStore()
    let store = try CommandLineTests.write("not a database", to: dir, name: "usage.sqlite")
    var options = Simulator.Options()
    options.storePath = store
    #expect(throws: Simulator.CommandError.self) { try Simulator(options: options) }
  }
}
