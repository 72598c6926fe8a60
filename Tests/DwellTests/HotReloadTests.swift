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
    try engine.setRules(RuleSource.load(dir.directory).rules)
    let outcomes = Outcomes()
    let watcher = RuleWatcher(path: dir.directory) { result in
      outcomes.add(result)
      if case .success(let source) = result { try? engine.setRules(source.rules) }
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
    try engine.setRules([Rule("early", when: .appTime(.seconds(5)))])
    engine.record(.active)
    rig.advance(10)
    #expect(engine.report().unlocks["early"] != nil)
    try engine.setRules([Rule("early", when: .appTime(.seconds(5000))), Rule("later", when: .appTime(.seconds(20)))])
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
    let deadline = ContinuousClock.now + .seconds(5)
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
