// A tracker's rules directory across reloads: the pack keeps its name (and so its plugins' states), and a save made while the tracker launches is reloaded.
import Dwell
import DwellHarness
import DwellLua
import DwellTesting
import Foundation
import Testing

/// `configuration.rulesDirectory` as an app sets it (issue 25): a reload names the pack as
/// the launch did, so its plugins go on from their saved states under one key; a save made
/// between the launch load and the watcher starting is seen; `dwell sim` names the pack as
/// a tracker does.
@Suite struct RulesDirectoryReloadTests {
  /// A plugin that counts sessions in its state and publishes the count.
  static let counter = """
    local c = plugin "counter"
    c.on("session_start", function(u)
      c.state.n = (c.state.n or 0) + 1
      c.publish("n", c.state.n)
    end)
    """

  /// A folder `host-rules` holding the counter and `files - 1` more scripts of a rule each.
  static func folder(files: Int, in dir: TemporaryStore) throws -> String {
    let folder = dir.directory + "/host-rules"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try counter.write(toFile: folder + "/counter.lua", atomically: true, encoding: .utf8)
    for index in 1..<max(files, 1) {
      try #"unlock "rule-\#(index)" { when = { sessions = 100 } }"#
        .write(toFile: folder + "/rule-\(index).lua", atomically: true, encoding: .utf8)
    }
    return folder
  }

  static func tracker(_ folder: String, store: TemporaryStore, listeners: [any UsageListener] = [])
    -> TrackerSimulation
  {
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(store.path)
    configuration.rulesDirectory = LuaRuleFolder(URL(fileURLWithPath: folder), interval: .milliseconds(10))
    configuration.listeners = listeners
    return TrackerSimulation(configuration: configuration)
  }

  static func pack(_ tracker: Tracker) -> LuaRulePack? { tracker.rulePack as? LuaRulePack }

  /// Waits (in real time: the watcher polls on its own queue) until `done` holds.
  static func waitUntil(_ done: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(5 * TestEnvironment.slowdown)
    while ContinuousClock.now < deadline {
      if done() { return true }
      try await Task.sleep(for: .milliseconds(10))
    }
    return done()
  }

  static func newSession(_ sim: TrackerSimulation) {
    sim.tracker.record(.background)
    sim.wait(.hours(1))
    sim.tracker.record(.active)
  }

  /// The plugin states the store holds, by key.
  static func stateKeys(_ tracker: Tracker) async throws -> [String] {
    let json = try await tracker.export(.json)
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let states = document["pluginStates"] as? [[String: Any]] ?? []
    return states.compactMap { $0["plugin"] as? String }
  }

  @Test(arguments: [1, 3])
  func aReloadKeepsThePacksNameAndItsPluginsCount(files: Int) async throws {
    let dir = TemporaryStore()
    let folder = try Self.folder(files: files, in: dir)
    let sim = Self.tracker(folder, store: dir)
    let tracker = sim.tracker
    let launched = try #require(Self.pack(tracker))
    #expect(launched.name == "host-rules")
    Self.newSession(sim)
    #expect(launched.published["counter"]?["n"] == .number(2))

    try (Self.counter + "\n-- saved again\n").write(toFile: folder + "/counter.lua", atomically: true, encoding: .utf8)
    #expect(try await Self.waitUntil { Self.pack(tracker).map { $0 !== launched } ?? false }, "not reloaded")
    let reloaded = try #require(Self.pack(tracker))
    #expect(reloaded.name == "host-rules")
    Self.newSession(sim)
    #expect(reloaded.published["counter"]?["n"] == .number(3))
    #expect(try await Self.stateKeys(tracker) == ["lua:host-rules/counter"])
    tracker.terminate()
  }

  /// Saves the folder's counter with a rule added when the engine is made: after the
  /// launch load, before the watcher starts.
  final class SaveOnLaunch: UsageListener, @unchecked Sendable {
    // @unchecked: `saved` is only touched on the launching thread, inside the tracker's init.
    let file: String
    var saved = false
    init(file: String) { self.file = file }
    var wantsTicks: Bool { false }
    func restore(states: [String: String]) {
      guard !saved else { return }
      saved = true
      let text = #"unlock "saved-at-launch" { when = { sessions = 100 } }"# + "\n" + RulesDirectoryReloadTests.counter
      try? text.write(toFile: file, atomically: true, encoding: .utf8)
    }
    func receive(_ event: UsageEvent, usage: UsageFigures) -> [UsageAction] { [] }
  }

  @Test(arguments: [1, 3])
  func aSaveDuringLaunchIsReloaded(files: Int) async throws {
    let dir = TemporaryStore()
    let folder = try Self.folder(files: files, in: dir)
    let saver = SaveOnLaunch(file: folder + "/counter.lua")
    let sim = Self.tracker(folder, store: dir, listeners: [saver])
    let tracker = sim.tracker
    #expect(saver.saved)
    let launched = try #require(Self.pack(tracker))
    #expect(!launched.rules.contains { $0.id == "saved-at-launch" })  // the launch load came first
    let seen = try await Self.waitUntil {
      Self.pack(tracker)?.rules.contains { $0.id == "saved-at-launch" } ?? false
    }
    #expect(seen, "the save made during launch was not reloaded")
    #expect(Self.pack(tracker)?.name == "host-rules")
    tracker.terminate()
  }

  /// `dwell sim` on a folder and then an app's tracker on the same store and folder: the
  /// tracker's plugin goes on from the count the sim saved, under the one key both use.
  @Test(arguments: [1, 3])
  func theSimAndATrackerNameAPackAlike(files: Int) async throws {
    let dir = TemporaryStore()
    let folder = try Self.folder(files: files, in: dir)
    let utc = try #require(TimeZone(secondsFromGMT: 0))
    var options = Simulator.Options(rulesPath: folder, start: parseWall("2026-05-04T07:00:00Z"), timeZone: utc)
    options.storePath = dir.path
    do {
      let simulator = try Simulator(options: options)
      for command in ["bg", "wait 31m", "fg"] { try simulator.perform(command) }  // two sessions
      simulator.close()
    }
    let sim = Self.tracker(folder, store: dir)
    let tracker = sim.tracker
    #expect(Self.pack(tracker)?.name == "host-rules")
    Self.newSession(sim)
    // Two sessions in the sim, then this one (and the launch's, if it started one).
    let count = Self.pack(tracker)?.published["counter"]?["n"]
    #expect(count == .number(3) || count == .number(4), "\(String(describing: count))")
    #expect(try await Self.stateKeys(tracker) == ["lua:host-rules/counter"])
    tracker.terminate()
  }

  /// `dwell sim` loads the folder, then starts its background watcher (interactive mode,
  /// `--watch`): a save in between is reloaded, not lost to the watcher's later baseline.
  @Test func aSaveBeforeTheSimWatchesIsReloaded() throws {
    let dir = TemporaryStore()
    let folder = try Self.folder(files: 1, in: dir)
    let utc = try #require(TimeZone(secondsFromGMT: 0))
    let simulator = try Simulator(
      options: Simulator.Options(rulesPath: folder, start: parseWall("2026-05-04T07:00:00Z"), timeZone: utc))
    defer { simulator.close() }
    try (Self.counter + "\n-- saved before watching\n")
      .write(toFile: folder + "/counter.lua", atomically: true, encoding: .utf8)
    simulator.watchRules()
    #expect(simulator.log.contains { $0.text.hasPrefix("Rules reloaded") }, "\(simulator.log.map(\.text))")
  }
}
