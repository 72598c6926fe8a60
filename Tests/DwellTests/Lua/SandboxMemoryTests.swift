import Testing

// Hostile scripts against memory and the host's conversions: capped, refused, never a crash.
@testable import Dwell
@testable import DwellLua

@Suite struct SandboxMemoryTests {
  @Test(arguments: [
    ("local t = {} t.self = t p.publish('x', t)", "a table contains itself"),
    ("local t = {} for i = 1, 40 do t = { t } end p.publish('x', t)", "nested more than 32 deep"),
    ("local t = {} for i = 1, 20 do t = { t, t } end p.publish('x', t)", "more than 10000 parts"),
    ("local t = {} t.self = t p.state = t", "a table contains itself"),
    ("local t = {} for i = 1, 40 do t = { t } end p.state.deep = t", "nested more than 32 deep"),
    ("local t = {} for i = 1, 20 do t = { t, t } end p.state.wide = t", "more than 10000 parts"),
    ("p.publish('x', host.echo(setmetatable({}, { __index = function() error('no') end })))", "good"),
  ])
  func conversionsRefuseCyclesDepthAndSize(script: String, limit: String) throws {
    let bad = "local p = plugin \"p\"\np.on(\"screen_enter\", function(u)\n\(script)\nend)"
    let outcome = try Hostile.run(bad, host: { $0.setHostFunction("echo") { $0.first ?? .null } })
    guard limit != "good" else { return #expect(outcome.problems.isEmpty, "\(outcome.problems)") }
    #expect(outcome.problems.contains { $0.contains("plugin 'p'") && $0.contains(limit) }, "\(outcome.problems)")
  }

  @Test func aDeclarativeConditionNestedTooDeeplyIsALoadError() {
    let when = String(repeating: "{ any = { ", count: 40) + "{ sessions = 1 }" + String(repeating: " } }", count: 40)
    #expect(throws: RuleError.self) { try LuaRulePack(scripts: [("deep.lua", "unlock \"d\" { when = \(when) }")]) }
  }

  @Test func aStateThatSavesLoadsAgainAndOneThatDoesNotIsQuarantined() throws {
    let script = """
      local p = plugin "p"
      p.on("screen_enter", function(u, s)
        local t = p.state for i = 1, 30 do t.next = t.next or {} t = t.next end
        t.visits = (t.visits or 0) + 1
      end)
      """
    let rig = Rig()
    func launch() throws -> (Engine, LuaRulePack) {
      let pack = try LuaRulePack(scripts: [("deep.lua", script)])
      rig.configuration = .init(listeners: [pack])
      return (try rig.launch(), pack)
    }
    var (engine, pack) = try launch()
    engine.record(.active)
    engine.record(.appear(screen: "A", id: .init("a")))
    engine.terminate()
    #expect(pack.diagnostics.isEmpty, "\(pack.diagnostics)")
    (engine, pack) = try launch()  // the 31-deep state loads
    engine.record(.active)
    engine.record(.appear(screen: "A", id: .init("a2")))
    engine.terminate()
    #expect(pack.diagnostics.isEmpty, "\(pack.diagnostics)")
    let saved = try Store(path: rig.store.path, readOnly: true).load().listenerStates["lua:deep/p"] ?? ""
    #expect(saved.contains(#""visits":2"#))
    // A stored state that cannot load (too deep for scripts): reported, set aside, the app launches.
    let hostile = String(repeating: #"{"a":"#, count: 100) + "1" + String(repeating: "}", count: 100)
    let quarantined = try LuaRulePack(scripts: [("deep.lua", script)])
    quarantined.restore(states: ["lua:deep/p": hostile])
    #expect(quarantined.diagnostics.contains { $0.message.contains("quarantine:lua:deep/p") })
    rig.configuration = .init(listeners: [quarantined])
    engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "A", id: .init("a3")))
    engine.terminate()
    let kept = try Store(path: rig.store.path, readOnly: true).load().listenerStates
    #expect(kept["quarantine:lua:deep/p"] == hostile)
  }

  @Test func hostValuesAreSetRawWhateverThePackDidToItsGlobals() throws {
    let pack = try LuaRulePack(scripts: [
      ("a.lua", "assert(not pcall(setmetatable, _G, { __index = function() error('boom') end }))"),
      ("b.lua", "unlock \"flag\" { check = function(u) return host.flag == true and #host.list == 2 end }"),
    ])
    pack.setHostValue("flag", .bool(true))
    pack.setHostValue("list", .list([.string("a"), .string("b")]))
    let deep = (0..<40).reduce(HostValue.null) { inner, _ in .list([inner]) }
    pack.setHostValue("deep", deep)
    #expect(pack.diagnostics.contains { $0.message.contains("host.deep") })
    let rig = Rig(configuration: .init(rules: pack.rules))
    let engine = try rig.launch()
    engine.record(.active)
    rig.advance(2)
    #expect(engine.report().unlocks["flag"] != nil, "\(pack.diagnostics)")
  }
}
