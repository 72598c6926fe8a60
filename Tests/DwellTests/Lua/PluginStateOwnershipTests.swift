import Foundation
import Testing

// A pack's plugin states are its own: no other pack reads them, by name or by a name built to collide.
@testable import Dwell
@testable import DwellLua

@Suite struct PluginStateOwnershipTests {
  /// A plugin `name` that publishes what its state holds (`pin`, or "none") and keeps a copy.
  static func spy(_ name: String) -> String {
    """
    local p = plugin "\(name)"
    p.on("screen_enter", function(u) p.publish("seen", p.state.pin or "none") p.state.copy = p.state.pin end)
    """
  }

  static let vault = """
    local v = plugin "pin"
    v.on("screen_enter", function(u) v.state.pin = "4711" end)
    """

  /// Runs `pack` for one screen on `rig`'s store; returns what its plugin `plugin` published.
  static func visit(_ pack: LuaRulePack, plugin: String, _ rig: Rig) throws -> JSONValue? {
    rig.configuration = .init(listeners: [pack])
    let engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "S", id: .init("s")))
    engine.terminate()
    return pack.publishedJSON[plugin]?["seen"]
  }

  static func states(_ rig: Rig) throws -> [String: String] {
    try Store(path: rig.store.path, readOnly: true).load().listenerStates
  }

  @Test func aPackDoesNotReadAnotherPacksStateUnderItsPluginsName() throws {
    let rig = Rig()
    _ = try Self.visit(LuaRulePack(scripts: [("vault.lua", Self.vault)]), plugin: "pin", rig)
    #expect(try Self.states(rig)["lua:vault/pin"] == #"{"pin":"4711"}"#)
    // Beside it, a state an older version saved under the bare name "pin".
    let evil = try LuaRulePack(scripts: [("evil.lua", Self.spy("pin"))])
    evil.restore(states: try Self.states(rig).merging(["pin": #"{"pin":"1234"}"#]) { a, _ in a })
    #expect(try Self.visit(evil, plugin: "pin", rig) == .string("none"))
    #expect(try Self.states(rig)["lua:evil/pin"] == "{}")
  }

  @Test func aPluginNamedLikeAnotherPacksKeyReadsNothing() throws {
    let rig = Rig()
    _ = try Self.visit(LuaRulePack(scripts: [("vault.lua", Self.vault)]), plugin: "pin", rig)
    let evil = try LuaRulePack(scripts: [("evil.lua", Self.spy("lua:vault/pin"))])
    #expect(try Self.visit(evil, plugin: "lua:vault/pin", rig) == .string("none"))
    let states = try Self.states(rig)
    #expect(states["lua:evil/lua:vault/pin"] == "{}" && states["lua:vault/pin"] == #"{"pin":"4711"}"#)
  }

  @Test func packAndPluginNamesCannotMakeTheSameKey() throws {
    // Pack "a/b" with plugin "c", and pack "a" with plugin "b/c": "lua:a/b/c" both, before.
    let one = try LuaRulePack(scripts: [("x.lua", Self.spy("c"))], name: "a/b")
    let two = try LuaRulePack(scripts: [("x.lua", Self.spy("b/c"))], name: "a")
    #expect(one.runtime.namespace + "c" != two.runtime.namespace + "b/c")
    #expect(LuaRuntime.owner(ofKey: one.runtime.namespace + "c") == "a%2Fb")
    #expect(LuaRuntime.owner(ofKey: "quarantine:" + two.runtime.namespace + "b/c") == "a")
    two.restore(states: [one.runtime.namespace + "c": #"{"pin":"4711"}"#])
    #expect(try Self.visit(two, plugin: "b/c", Rig()) == .string("none"))
  }

  @Test func aBareNameStateIsAdoptedWhenNoOtherPackIsOnTheStore() throws {
    let pack = try LuaRulePack(scripts: [("mine.lua", Self.spy("pin"))])
    pack.restore(states: ["pin": #"{"pin":"1234"}"#, "import:legacy": "imported"])
    let rig = Rig()
    #expect(try Self.visit(pack, plugin: "pin", rig) == .string("1234"))
    // Saved under the pack's own key: from now on the store shows pack "mine".
    #expect(try Self.states(rig)["lua:mine/pin"] == #"{"copy":"1234","pin":"1234"}"#)
  }

  @Test func aBareNameStateIsLeftAloneOnceAnotherPackIsOnTheStore() throws {
    let pack = try LuaRulePack(scripts: [("mine.lua", Self.spy("pin"))])
    pack.restore(states: ["pin": #"{"pin":"1234"}"#, "quarantine:lua:other/x": "{"])
    #expect(try Self.visit(pack, plugin: "pin", Rig()) == .string("none"))
  }
}
