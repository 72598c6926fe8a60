import Dwell
import DwellLua
import DwellTesting
import Foundation
import Testing

@Suite struct HotReloadTests {
  final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Result<RuleSource, RuleError>] = []
    func add(_ item: Result<RuleSource, RuleError>) { lock.withLock { items.append(item) } }
    var all: [Result<RuleSource, RuleError>] { lock.withLock { items } }
  }

  @Test func aGoodChangeIsPickedUpAndABrokenOneKeepsTheOldSet() throws {
    let dir = TemporaryStore()
    let file = dir.directory + "/rules.lua"
    try #"unlock "lessons" { when = { screen = "Lessons", seconds = minutes(30) } }"#
      .write(toFile: file, atomically: true, encoding: .utf8)
    let rig = Rig()
    let engine = try rig.launch()
    let inForce = RulesInForce()
    let first = try RuleSource.load(dir.directory)
    try inForce.change(in: engine) { $0.pack = first.pack }
    let outcomes = Outcomes()
    let watcher = RuleWatcher(path: dir.directory) { result in
      outcomes.add(result)
      if case .success(let source) = result { _ = try? inForce.change(in: engine) { $0.pack = source.pack } }
    }
    engine.record(.active)
    engine.record(.appear(screen: "Lessons", id: ScreenInstance("l")))
    rig.advance(20 * 60)
    #expect(engine.report().unlocks.isEmpty)

    // The designer lowers the threshold: re-evaluated at once, unlocked at the exact
    // instant the new threshold was reached... which is in the past, so it unlocks now.
    try #"unlock "lessons" { when = { screen = "Lessons", seconds = minutes(15) } }"#
      .write(toFile: file, atomically: true, encoding: .utf8)
    #expect(watcher.checkNow())
    #expect(engine.report().unlocks["lessons"]?.mono.seconds == 1200)

    // A syntax error: reported, and the previous rules keep running.
    try #"unlock "lessons" { when = { screen = "Lessons", seconds = minutes(15) } "#
      .write(toFile: file, atomically: true, encoding: .utf8)
    #expect(watcher.checkNow())
    guard case .failure(let error) = outcomes.all.last else {
      Issue.record("the broken set was accepted")
      return
    }
    #expect(error.file == file)
    #expect(error.line == 1)
    #expect(engine.rules.map(\.id) == ["lessons"])
    #expect(!watcher.checkNow())  // nothing changed since
  }

  @Test func unlocksSurviveAReloadThatDropsOrChangesTheirRule() throws {
    let rig = Rig()
    let engine = try rig.launch()
    let inForce = RulesInForce()
    try inForce.change(in: engine) { $0.rules = [Rule("early", when: .appTime(.seconds(5)))] }
    engine.record(.active)
    rig.advance(10)
    #expect(engine.report().unlocks["early"] != nil)
    try inForce.change(in: engine) {
      $0.rules = [Rule("early", when: .appTime(.seconds(5000))), Rule("later", when: .appTime(.seconds(20)))]
    }
    rig.advance(15)
    let unlocks = engine.report().unlocks
    #expect(unlocks["early"]?.mono.seconds == 5)
    #expect(unlocks["later"]?.mono.seconds == 20)
  }

  @Test func rapidSavesSettleOnTheLastVersion() async throws {
    let dir = TemporaryStore()
    let file = dir.directory + "/pack.lua"
    try #"unlock "v0" { when = { sessions = 1 } }"#.write(toFile: file, atomically: true, encoding: .utf8)
    let outcomes = Outcomes()
    let watcher = RuleWatcher(path: dir.directory, interval: .milliseconds(5), debounce: .milliseconds(40)) {
      outcomes.add($0)
    }
    watcher.start()
    for version in 1...20 {
      let text = version % 2 == 0 ? #"unlock "v\#(version)" { when = { sessions = 1 } }"# : "unlock \"broken\" {"
      try text.write(toFile: file, atomically: true, encoding: .utf8)
      try await Task.sleep(for: .milliseconds(2))
    }
    let deadline = ContinuousClock.now + .seconds(5 * TestEnvironment.slowdown)
    while ContinuousClock.now < deadline {
      if case .success(let source)? = outcomes.all.last, source.rules.map(\.id) == ["v20"] { break }
      try await Task.sleep(for: .milliseconds(20))
    }
    watcher.stop()
    guard case .success(let source)? = outcomes.all.last else {
      Issue.record("no successful reload: \(outcomes.all)")
      return
    }
    #expect(source.rules.map(\.id) == ["v20"])
    #expect(outcomes.all.count < 20)  // debounced
  }
}

/// The edit a designer makes most keeps the file's length (`minutes(10)` -> `minutes(15)`,
/// `visits = 3` -> `visits = 2`); it must reload like any other, in place or by rename.
@Suite struct SameLengthEditTests {
  static let before = #"unlock "a" { when = { screen = "Lessons", seconds = minutes(10) } }"#
  static let after = #"unlock "a" { when = { screen = "Lessons", seconds = minutes(15) } }"#

  @Test func theDigestIsSHA256() {
    #expect(SHA256.hex(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      SHA256.hex(of: [UInt8](repeating: 0x61, count: 1000))
        == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
  }

  @Test(arguments: [false, true])
  func aSameLengthEditReloadsOnCheck(byRename: Bool) throws {
    let dir = TemporaryStore()
    let file = dir.directory + "/rules.lua"
    try Self.before.write(toFile: file, atomically: true, encoding: .utf8)
    let outcomes = HotReloadTests.Outcomes()
    let watcher = RuleWatcher(path: dir.directory) { outcomes.add($0) }
    #expect(Self.before.utf8.count == Self.after.utf8.count)
    try Self.after.write(toFile: file, atomically: byRename, encoding: .utf8)
    #expect(watcher.checkNow())
    guard case .success(let source)? = outcomes.all.last else {
      Issue.record("no reload: \(outcomes.all)")
      return
    }
    #expect(source.rules.first.map { "\($0.condition)" } == "\(Condition.screenTime("Lessons", .seconds(900)))")
  }

  /// Started in the background, as the simulator and a host app run it: an edit that
  /// keeps the length, and even one that keeps the modification time, is live within a
  /// second; a `touch` that changes nothing does not reload.
  @Test(arguments: ["in place", "by rename", "same stamp", "touch"])
  func aSameLengthEditReloads(how: String) async throws {
    let dir = TemporaryStore()
    let file = dir.directory + "/rules.lua"
    try Self.before.write(toFile: file, atomically: true, encoding: .utf8)
    let stamp = try FileManager.default.attributesOfItem(atPath: file)[.modificationDate]
    let outcomes = HotReloadTests.Outcomes()
    let watcher = RuleWatcher(path: dir.directory, interval: .milliseconds(50)) { outcomes.add($0) }
    watcher.start()
    defer { watcher.stop() }
    try await Task.sleep(for: .milliseconds(120))
    switch how {
    case "touch":
      try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file)
    case "same stamp":
      try Self.after.write(toFile: file, atomically: false, encoding: .utf8)
      try FileManager.default.setAttributes([.modificationDate: stamp as Any], ofItemAtPath: file)
    default:
      try Self.after.write(toFile: file, atomically: how == "by rename", encoding: .utf8)
    }
    // The watcher looks every 50 ms: a reload comes within a second. The wait counts polls,
    // not wall time, and allows ten seconds' worth for a loaded machine (a sanitizer run);
    // a touch, which must not reload, is watched for the second.
    for _ in 0..<(how == "touch" ? 100 : 1_000) where outcomes.all.isEmpty {
      try await Task.sleep(for: .milliseconds(10))
    }
    if how == "touch" {
      #expect(outcomes.all.isEmpty)
      return
    }
    guard case .success(let source)? = outcomes.all.last else {
      Issue.record("\(how): not reloaded: \(outcomes.all)")
      return
    }
    #expect(source.rules.first.map { "\($0.condition)" } == "\(Condition.screenTime("Lessons", .seconds(900)))")
  }
}

@Suite struct ReloadStormTests {
  /// Three hundred saves as fast as the disk takes them, half of them broken (a syntax
  /// error, or a check that loops for ever), each reloaded at once, while another thread
  /// records thousands of screen changes a second on a real-time engine. Nothing is lost,
  /// nothing broken gets in, and the engine ends on the last good version.
  @Test func hundredsOfSavesHalfBrokenWhileEventsFlow() throws {
    let dir = TemporaryStore()
    let file = dir.directory + "/pack.lua"
    func version(_ n: Int) -> String {
      switch n % 4 {
      case 1: return "unlock \"v\(n)\" { when = { sessions = 1 }"  // does not load
      case 3:
        return """
          unlock "v\(n)" { when = { sessions = 1 } }
          unlock "spin\(n)" { check = function(u) while true do end end }
          """
      default:
        return """
          unlock "v\(n)" { when = { sessions = 1 } }
          unlock "c\(n)" { check = function(u) return u.app.seconds >= 0 and u.screen("S").visits >= 0 end }
          """
      }
    }
    try version(0).write(toFile: file, atomically: true, encoding: .utf8)
    let clock = SystemMonotonicClock()
    let engine = try Engine(
      store: Store(path: dir.path), clock: clock, scheduler: DispatchScheduler(clock: clock))
    let inForce = RulesInForce()
    let first = try RuleSource.load(dir.directory)
    try inForce.change(in: engine) { $0.pack = first.pack }
    let outcomes = HotReloadTests.Outcomes()
    let watcher = RuleWatcher(path: dir.directory) { result in
      outcomes.add(result)
      if case .success(let source) = result {
        do { try inForce.change(in: engine) { $0.pack = source.pack } } catch { Issue.record(error) }
      }
    }
    engine.record(.active)
    let running = LockedBox(true)
    let recorded = LockedBox(0)
    let started = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      var count = 0
      while running.value {
        if count == 1 { started.signal() }
        let id = ScreenInstance(number: UInt(count))
        engine.record(.appear(screen: "S", id: id))
        engine.record(.disappear(id: id))
        count += 1
        usleep(200)  // 5,000 transitions a second: every one evaluates the checks
      }
      recorded.update { $0 = count }
      done.signal()
    }
    started.wait()
    var reloads = 0
    for n in 1...300 {
      try version(n).write(toFile: file, atomically: true, encoding: .utf8)
      if watcher.checkNow() { reloads += 1 }
    }
    running.update { $0 = false }
    done.wait()

    #expect(reloads == 300)  // every save changes the bytes, so every one reloads
    let failures = outcomes.all.filter { if case .failure = $0 { true } else { false } }
    #expect(failures.count >= 70 && failures.count <= 75)  // the 75 that do not load
    #expect(engine.rules.map(\.id) == ["v300", "c300"])
    #expect(engine.visits("S") == recorded.value)
    #expect(recorded.value > 0)
    let unlocks = engine.report().unlocks
    #expect(unlocks["c300"] != nil)
    #expect(!unlocks.keys.contains { $0.hasPrefix("spin") })
    engine.terminate()
  }
}
