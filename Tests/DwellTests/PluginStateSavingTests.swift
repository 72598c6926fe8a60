import DwellLua
import Foundation
import Testing

@testable import Dwell

// A plugin's state is saved when it changed, and only then: a handler that writes nothing
// (a tick, many times a second of simulated time) costs no JSON text, and every real
// change is saved, however small.
@Suite struct PluginStateSavingTests {
  static let script = """
    local p = plugin "p"
    p.on("tick", function(u) local seen = p.state.n end)
    p.on("screen_enter", function(u, s)
      if s == "five" then p.state.n = 5
      elseif s == "big" then p.state.n = 9007199254740993
      elseif s == "big-1" then p.state.n = 9007199254740992
      elseif s == "nfc" then p.state.s = "\\u{E9}"
      elseif s == "nfd" then p.state.s = "e\\u{301}"
      elseif s == "nested" then p.state.t = p.state.t or {}; p.state.t.x = (p.state.t.x or 0) + 1
      elseif s == "replace" then p.state = { n = 5 }
      end
    end)
    """

  private func usage(_ k: Int) -> UsageView {
    UsageView(
      appSeconds: Double(k), sessions: 1, activeDays: 1, longestStreak: 1, currentStreak: 1, todaySeconds: Double(k),
      today: Day(ordinal: 20_454), hour: 12, instant: MonotonicInstant(nanoseconds: Int64(k) * 1_000_000_000),
      revision: UInt64(k), screens: [], screenIndex: [:])
  }

  private func saved(_ actions: [UsageAction]) -> [String] {
    actions.compactMap {
      guard case .saveState(_, let data) = $0 else { return nil }
      return data
    }
  }

  @Test func savesEveryChangeAndNothingElse() throws {
    let pack = try LuaRulePack(scripts: [("p.lua", Self.script)])
    var k = 0
    func send(_ event: UsageEvent) -> [String] {
      k += 1
      return saved(pack.receive(event, usage: usage(k)))
    }
    #expect(send(.tick) == ["{}"])  // the first state, once
    for _ in 0..<50 { #expect(send(.tick).isEmpty) }
    #expect(send(.screenEntered("five")) == [#"{"n":5}"#])
    #expect(send(.screenEntered("five")).isEmpty)
    #expect(send(.tick).isEmpty)
    // Two integers one apart that are the same double.
    #expect(send(.screenEntered("big")) == [#"{"n":9007199254740993}"#])
    #expect(send(.screenEntered("big-1")) == [#"{"n":9007199254740992}"#])
    // "é" precomposed, then as e + U+0301: equal as Swift strings, different text.
    #expect(send(.screenEntered("nfc")).count == 1)
    #expect(send(.screenEntered("nfd")).count == 1)
    #expect(send(.tick).isEmpty)
    // A change deep inside.
    #expect(send(.screenEntered("nested")).count == 1)
    #expect(send(.screenEntered("nested")).first?.contains(#""x":2"#) == true)
    #expect(send(.tick).isEmpty)
    #expect(pack.diagnostics.isEmpty)
  }

  /// A state restored (a reload) and then set back by a handler to what it was before the
  /// restore is saved: it differs from what the store holds now.
  @Test func aStateSetBackAfterARestoreIsSaved() throws {
    let pack = try LuaRulePack(scripts: [("p.lua", Self.script)])
    #expect(saved(pack.receive(.screenEntered("five"), usage: usage(1))) == [#"{"n":5}"#])
    pack.restore(states: ["p": #"{"n":7}"#])
    #expect(saved(pack.receive(.tick, usage: usage(2))).isEmpty)  // {"n":7}, as restored
    #expect(saved(pack.receive(.screenEntered("five"), usage: usage(3))) == [#"{"n":5}"#])
    // A whole new table with the same contents is the same state.
    #expect(saved(pack.receive(.screenEntered("replace"), usage: usage(4))).isEmpty)
  }
}
