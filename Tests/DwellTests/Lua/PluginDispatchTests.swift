// How plugins' handlers are run: a plugin's only handler of an event is called directly,
// several go through the prelude's dispatch, and a handler added later is never missed.
import DwellLua
import Testing

@testable import Dwell

@Suite struct PluginDispatchTests {
  static let pack = """
    local late = plugin "late"
    late.on("screen_enter", function(u, screen)
      late.state.log = (late.state.log or "") .. "a" .. screen
      if not late.state.added then
        late.state.added = true
        late.on("screen_enter", function(u, screen)
          late.state.log = late.state.log .. "b" .. screen
          late.publish("log", late.state.log)
        end)
      end
      late.publish("log", late.state.log)
    end)

    local pair = plugin "pair"
    pair.on("screen_enter", function(u, screen) pair.state.n = (pair.state.n or 0) + 1 end)
    pair.on("screen_enter", function(u, screen)
      pair.state.n = pair.state.n * 10
      pair.publish("n", pair.state.n)
    end)

    local alone = plugin "alone"
    alone.on("tick", function(u, nothing)
      alone.state.ticks = (alone.state.ticks or 0) + 1
      alone.publish("ticks", alone.state.ticks)
      alone.publish("hour", u.hour)
      alone.publish("handlers", type(alone.handlers))
      alone.publish("argument", type(nothing))
    end)
    """

  @Test func onlyHandlersSeveralHandlersAndOneAddedLaterAllRunInOrder() throws {
    let pack = try LuaRulePack(scripts: [("pack.lua", Self.pack)])
    let rig = Rig(configuration: RuleSet(pack: pack).configuration(base: .init()))
    let engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "X", id: ScreenInstance("x")))
    rig.advance(3)
    engine.record(.appear(screen: "Y", id: ScreenInstance("y")))
    rig.advance(2)
    let published = pack.published
    // The handler added by the first call runs from the next event on, after the first.
    #expect(published["late"]?["log"] == .string("aXaYbY"))
    // Both handlers of one plugin, in the order they were added: (0+1)*10, then (10+1)*10.
    #expect(published["pair"]?["n"] == .number(110))
    #expect(published["alone"]?["ticks"] == .number(5))
    #expect(published["alone"]?["hour"] == .number(10))  // 08:00Z + 5 s in Berlin
    #expect(published["alone"]?["argument"] == .string("nil"))
    // The handler lists are the prelude's: a script cannot swap them behind the host's back.
    #expect(published["alone"]?["handlers"] == .string("nil"))
  }

  @Test func anOnlyHandlerThatFailsIsReportedAtItsLineAndDisabled() throws {
    let script = """
      local bad = plugin "bad"
      bad.on("tick", function(u)
        bad.state.n = (bad.state.n or 0) + 1
        if bad.state.n == 2 then error("boom") end
      end)
      """
    let pack = try LuaRulePack(scripts: [("bad.lua", script)])
    let rig = Rig(configuration: RuleSet(pack: pack).configuration(base: .init()))
    let engine = try rig.launch()
    engine.record(.active)
    rig.advance(4)
    let messages = pack.diagnostics.map(\.message)
    #expect(messages.count == 1)
    #expect(messages.first?.contains("plugin 'bad'") == true)
    #expect(messages.first?.contains("bad.lua:4:") == true)
    #expect(messages.first?.contains("boom") == true)
  }
}
