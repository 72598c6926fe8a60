import Testing

// Packs and files kept apart: globals, libraries, plugin state and unlocks.
@testable import Dwell
@testable import DwellLua

@Suite struct SandboxIsolationTests {
  @Test func aFileCannotChangeAnotherFilesRulesOrLibraries() throws {
    let pack = try LuaRulePack(scripts: [
      (
        "a.lua",
        """
        unlock = function() error("hijacked") end
        assert(not pcall(function() string.upper = nil end))
        assert(not pcall(function() table.insert = nil end))
        assert(not pcall(function() host.x = 1 end))
        assert(getmetatable("") == false and getmetatable(string) == false)
        assert(not pcall(setmetatable, string, {}))
        secret = 42
        """
      ),
      (
        "b.lua",
        """
        assert(secret == nil and ("x"):upper() == "X" and string.upper ~= nil and string.dump == nil)
        unlock "b" { when = { sessions = 1 } }
        """
      ),
    ])
    #expect(pack.rules.map(\.id) == ["b"])
  }

  @Test func pluginStatesAreKeptPerPack() throws {
    let wallet = """
      local w = plugin "wallet"
      w.on("screen_enter", function(u) w.state.coins = (w.state.coins or 0) + 1 w.publish("coins", w.state.coins) end)
      """
    let a = try LuaRulePack(scripts: [("a.lua", wallet)])
    let b = try LuaRulePack(scripts: [("b.lua", wallet)])
    let rig = Rig(configuration: .init(listeners: [a, b]))
    var engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "S", id: .init("s")))
    engine.terminate()
    let states = try Store(path: rig.store.path, readOnly: true).load().listenerStates
    #expect(states["lua:a/wallet"] == #"{"coins":1}"# && states["lua:b/wallet"] == #"{"coins":1}"#)
    #expect(states["wallet"] == nil)
    rig.configuration = .init(listeners: [try LuaRulePack(scripts: [("b.lua", wallet)])])
    engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "S", id: .init("s2")))
    engine.terminate()
    let after = try Store(path: rig.store.path, readOnly: true).load().listenerStates
    #expect(after["lua:b/wallet"] == #"{"coins":2}"# && after["lua:a/wallet"] == #"{"coins":1}"#)
  }

  @Test func aPluginNamedLikeAnImportKeyDoesNotBlockTheImport() throws {
    let pack = try LuaRulePack(scripts: [
      ("p.lua", "local p = plugin \"import:legacy-v1\"\np.on(\"screen_enter\", function(u) p.state.x = 1 end)")
    ])
    let rig = Rig(configuration: .init(listeners: [pack]))
    let engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "S", id: .init("s")))
    #expect(engine.importTotals(app: 5_000_000_000, screens: [:], key: "legacy-v1"))
  }

  @Test func aPluginUnlocksOnlyItsOwnPacksRules() throws {
    let a = try LuaRulePack(scripts: [
      ("a.lua", "local p = plugin \"p\"\np.on(\"screen_enter\", function(u) p.unlock(\"b-rule\") end)")
    ])
    let b = try LuaRulePack(scripts: [("b.lua", "unlock \"b-rule\" { when = { sessions = 100 } }")])
    let rig = Rig(configuration: .init(rules: b.rules, listeners: [a]))
    let engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "S", id: .init("s")))
    #expect(engine.report().unlocks["b-rule"] == nil)
    #expect(
      a.diagnostics.contains { $0.message.contains("a.lua:2:") && $0.message.contains("not a rule of this pack") })
  }
}
