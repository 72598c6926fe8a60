// The saved (installed) rule pack read at launch: bounded, and never a FIFO or a device (#27 item 6).
import Dwell
import DwellLua
import DwellTesting
import Foundation
import Testing

@Suite struct SavedPackReadingTests {
  let folder = TemporaryStore()
  let keys = PackSignature.makeKeyPair()

  private func launch() -> Tracker {
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(folder.path)
    configuration.trustedPackKeys = [keys.publicKey]
    configuration.packLoader = LuaPackLoader()
    let clock = ManualClock()
    return Tracker(
      configuration: configuration, clock: clock, wallClock: ManualWallClock(clock: clock), scheduler: clock)
  }

  private var savedPath: String { folder.path + ".rulepack" }

  /// A FIFO where the saved pack goes: the launch neither waits for a writer nor reads what
  /// one writes; it reports the FIFO and runs without the pack.
  @Test func aFIFOInThePacksPlaceIsRefusedAtLaunch() throws {
    try withFIFO(at: savedPath) {
      let tracker = launch()
      let problem = "\(String(describing: tracker.lastProblem))"
      #expect(problem.contains("is a FIFO, not a file"), "\(problem)")
      #expect(tracker.rules.isEmpty)
    }
  }

  /// A directory there, and a file larger than a pack and its signature can be: refused by
  /// what they are (the large one read no further than the bound).
  @Test func aDirectoryOrAnOversizedFileIsRefusedAtLaunch() throws {
    try FileManager.default.createDirectory(atPath: savedPath, withIntermediateDirectories: true)
    let first = launch()
    #expect("\(String(describing: first.lastProblem))".contains("is a directory, not a file"))
    first.terminate()
    try FileManager.default.removeItem(atPath: savedPath)
    try Data(count: (8 << 20) + 65).write(to: URL(fileURLWithPath: savedPath))
    let second = launch()
    let problem = "\(String(describing: second.lastProblem))"
    #expect(problem.contains("is larger than the 8388672 bytes"), "\(problem)")
  }

  /// A saved pack as an install leaves it still loads.
  @Test func aGoodSavedPackStillLoads() throws {
    let data = RulePackArchive(files: ["a.lua": "unlock \"saved\" { when = { appSeconds = 60 } }"]).data
    do {
      let first = launch()
      try first.installRulePack(data, signature: PackSignature.sign(data, with: keys.privateKey))
      first.terminate()
    }
    #expect(launch().rules.map(\.id) == ["saved"])
  }
}
