// Signed packs with versions, and the two pack slots: installed over bundled (#27 item 6).
import Dwell
import DwellLua
import DwellTesting
import Foundation
import Testing

/// A signed pack carries a version and installs only over an older one (an old signed pack
/// served again is refused with `RulePackError.notNewer`); archives without a version load
/// as version 0. The rules directory and an installed pack have separate slots: the
/// directory's reloads do not replace an installed pack, and a newer bundled version (an
/// app update) takes over from an older installed pack at launch.
@Suite struct PackVersionTests {
  let store = TemporaryStore()
  let keys = PackSignature.makeKeyPair()

  /// A pack of one rule `id`, of `version` (`nil`: an archive without one).
  func pack(_ id: String, version: Int?) -> Data {
    RulePackArchive(files: ["a.lua": "unlock \"\(id)\" { when = { appSeconds = 60 } }"], version: version).data
  }

  /// A rules directory holding one rule `id`.
  func writeFolder(_ id: String) throws -> String {
    let folder = store.directory + "/bundled"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try "unlock \"\(id)\" { when = { sessions = 100 } }".write(
      toFile: folder + "/rules.lua", atomically: true, encoding: .utf8)
    return folder
  }

  func launch(folder: String? = nil, bundledVersion: Int = 0) -> Tracker {
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(store.path)
    configuration.trustedPackKeys = [keys.publicKey]
    configuration.packLoader = LuaPackLoader()
    configuration.bundledPackVersion = bundledVersion
    if let folder {
      configuration.rulesDirectory = LuaRuleFolder(URL(fileURLWithPath: folder), interval: .milliseconds(10))
    }
    let clock = ManualClock()
    return Tracker(
      configuration: configuration, clock: clock, wallClock: ManualWallClock(clock: clock), scheduler: clock)
  }

  func install(_ data: Data, on tracker: Tracker) -> RulePackError? {
    do {
      try tracker.installRulePack(data, signature: PackSignature.sign(data, with: keys.privateKey))
      return nil
    } catch {
      return error
    }
  }

  func ids(_ tracker: Tracker) -> [String] { tracker.rules.map(\.id).sorted() }

  @Test func olderOrEqualVersionsAreRefusedAcrossLaunches() {
    do {
      let tracker = launch()
      #expect(install(pack("two", version: 2), on: tracker) == nil)
      #expect(install(pack("one", version: 1), on: tracker) == .notNewer(offered: 1, current: 2))
      #expect(install(pack("two-again", version: 2), on: tracker) == .notNewer(offered: 2, current: 2))
      #expect(install(pack("none", version: nil), on: tracker) == .notNewer(offered: 0, current: 2))
      #expect(ids(tracker) == ["two"])
      #expect(install(pack("three", version: 3), on: tracker) == nil)
      #expect(ids(tracker) == ["three"])
      tracker.terminate()
    }
    // The version in force is the saved pack's: the relaunch refuses what the last run did.
    let relaunched = launch()
    #expect(ids(relaunched) == ["three"])
    #expect(install(pack("two", version: 2), on: relaunched) == .notNewer(offered: 2, current: 3))
    #expect(install(pack("three", version: 3), on: relaunched) == .notNewer(offered: 3, current: 3))
    #expect(ids(launch()) == ["three"])
  }

  @Test func archivesWithoutAVersionStillLoadAsVersionZero() {
    do {
      let tracker = launch()
      #expect(install(pack("old", version: nil), on: tracker) == nil)
      tracker.terminate()
    }
    let relaunched = launch()
    #expect(ids(relaunched) == ["old"])
    #expect(relaunched.lastProblem == nil)
    #expect(install(pack("old-again", version: nil), on: relaunched) == .notNewer(offered: 0, current: 0))
    #expect(install(pack("zero", version: 0), on: relaunched) == .notNewer(offered: 0, current: 0))
    #expect(install(pack("first", version: 1), on: relaunched) == nil)
    #expect(ids(relaunched) == ["first"])
  }

  @Test func versionsThatAreNotSmallNonNegativeIntegersAreMalformed() throws {
    let tracker = launch()
    for version in ["-1", "1.5", "\"2\"", "1e300", "\(1 << 60)", "null"] {
      let data = Data(#"{"format": "dwell-rule-pack/1", "version": \#(version), "files": {"a.lua": ""}}"#.utf8)
      let error = install(data, on: tracker)
      if version == "null" {
        #expect(error == nil, "an explicit null is no version")
      } else if case .malformedArchive? = error {
      } else {
        Issue.record("version \(version): \(String(describing: error))")
      }
    }
    #expect(RulePackArchive(files: ["a.lua": ""], version: 7) != RulePackArchive(files: ["a.lua": ""]))
    let read = try RulePackArchive(data: RulePackArchive(files: ["a.lua": ""], version: 7).data)
    #expect(read.version == 7)
    #expect(try RulePackArchive(data: RulePackArchive(files: ["a.lua": ""]).data).declaredVersion == nil)
  }

  @Test func aFolderReloadDoesNotReplaceAnInstalledPack() async throws {
    let folder = try writeFolder("bundled")
    let tracker = launch(folder: folder)
    #expect(ids(tracker) == ["bundled"])
    // Without an installed pack, a save is reloaded.
    _ = try writeFolder("bundled-2")
    #expect(try await RulesDirectoryReloadTests.waitUntil { ids(tracker) == ["bundled-2"] })
    #expect(install(pack("downloaded", version: 1), on: tracker) == nil)
    #expect(ids(tracker) == ["downloaded"])
    _ = try writeFolder("bundled-3")
    try await Task.sleep(for: .milliseconds(300 * TestEnvironment.slowdown))
    #expect(ids(tracker) == ["downloaded"])
    tracker.terminate()
    // At the next launch too, the installed pack (at least the bundled version) is in force.
    #expect(ids(launch(folder: folder)) == ["downloaded"])
  }

  @Test func aNewerBundledVersionTakesOverFromAnOlderInstalledPack() throws {
    let folder = try writeFolder("bundled")
    do {
      let tracker = launch(folder: folder, bundledVersion: 1)
      #expect(install(pack("too-old", version: 0), on: tracker) == .notNewer(offered: 0, current: 1))
      #expect(install(pack("downloaded", version: 1), on: tracker) == nil)
      tracker.terminate()
    }
    // The app is updated with version 5 of its bundled rules: they are in force, and the
    // installed pack of version 1 is deleted (it does not come back with an older app).
    let updated = launch(folder: folder, bundledVersion: 5)
    #expect(ids(updated) == ["bundled"])
    #expect(!FileManager.default.fileExists(atPath: store.path + ".rulepack"))
    #expect(install(pack("stale", version: 4), on: updated) == .notNewer(offered: 4, current: 5))
    #expect(install(pack("current", version: 5), on: updated) == nil)
    #expect(ids(updated) == ["current"])
    updated.terminate()
    #expect(ids(launch(folder: folder, bundledVersion: 5)) == ["current"])
  }
}
