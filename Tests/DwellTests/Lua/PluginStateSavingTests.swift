import Foundation
import Testing

@testable import Dwell
@testable import DwellLua

// A plugin's state is saved when the engine saves (a checkpoint, a commit, a reload) and
// it changed, and only then: a handler between checkpoints (a tick, many times a second
// of simulated time) costs no JSON text, and every real change is saved, however small,
// once, with the points it went with.
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

  private func usage(_ k: Int) -> UsageFigures {
    UsageFigures(
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
      #expect(saved(pack.receive(event, usage: usage(k))).isEmpty)  // saved when taken, not with each call
      return saved(pack.takeStates())
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
    func send(_ event: UsageEvent, _ k: Int) -> [String] {
      _ = pack.receive(event, usage: usage(k))
      return saved(pack.takeStates())
    }
    #expect(send(.screenEntered("five"), 1) == [#"{"n":5}"#])
    pack.restore(states: ["lua:p/p": #"{"n":7}"#])
    #expect(send(.tick, 2).isEmpty)  // {"n":7}, as restored
    #expect(send(.screenEntered("five"), 3) == [#"{"n":5}"#])
    // A whole new table with the same contents is the same state.
    #expect(send(.screenEntered("replace"), 4).isEmpty)
    // Changed and changed back between two checkpoints: nothing to save.
    _ = pack.receive(.screenEntered("nested"), usage: usage(5))
    _ = pack.receive(.screenEntered("replace"), usage: usage(6))
    #expect(saved(pack.takeStates()).isEmpty)
    #expect(!pack.hasUnsavedStates)
  }

  /// A plugin counts its ticks in its state and awards a point for each. The state changes
  /// every second but is saved only at checkpoints: after a crash at any moment the state
  /// restored counts exactly the points restored (no change lost at a checkpoint, none
  /// saved twice), at most a checkpoint interval (2 s) behind, and after a reload and a
  /// clean end the count still equals the points.
  @Test(arguments: [4.5, 5.0, 5.999, 6.0, 6.5, 7.25])
  func eachCheckpointSavesTheStateWithThePointsItCounted(crashAt: Double) throws {
    let script = """
      local p = plugin "p"
      p.on("tick", function(u) p.state.n = (p.state.n or 0) + 1 p.award(1, "tick") end)
      """
    let rig = Rig()
    func launch() throws -> (Engine, LuaRulePack) {
      let pack = try LuaRulePack(scripts: [("p.lua", script)])
      rig.configuration = .init(listeners: [pack])
      return (try rig.launch(), pack)
    }
    func count(_ pack: LuaRulePack) -> Int? {
      pack.runtime.box.withLock { $0.savedStates["p"] }.flatMap { text in
        guard case .object(let members)? = try? JSONParser.parse(text),
          case .number(let n, _)? = members.first(where: { $0.key == "n" })?.value
        else { return nil }
        return Int(n)
      }
    }
    var (engine, pack) = try launch()
    engine.record(.active)
    rig.advance(crashAt)
    let ticks = Int(crashAt)
    engine.abandon()  // a crash
    (engine, pack) = try launch()
    let points = engine.report().points
    #expect(points >= ticks - 2 && points <= ticks, "\(points) of \(ticks)")
    #expect(count(pack) == points)
    engine.record(.active)
    rig.advance(3.5)
    let reloaded = try LuaRulePack(scripts: [("p.lua", script)])
    try RulesInForce().change(in: engine) { $0.pack = reloaded }  // mid-interval: the live count goes on
    #expect(count(reloaded) == engine.report().points)
    rig.advance(2.25)
    engine.terminate()
    let stored = try Store(path: rig.store.path, readOnly: true).load()
    let final = try UsageReport(store: Store(path: rig.store.path, readOnly: true)).points
    #expect(final >= points + 5, "\(final) after \(points)")
    #expect(stored.listenerStates["lua:p/p"] == #"{"n":\#(final)}"#)
    #expect(pack.diagnostics.isEmpty && reloaded.diagnostics.isEmpty)
  }

  /// Text in a state comes back byte for byte after a save and a restore: a NUL inside a
  /// string or a key, the keys "" and "\0" side by side, a key in two Unicode forms. A
  /// string (or key) that is not UTF-8 text cannot be kept as text: it is refused when the
  /// state is saved, naming the file, the line and where in the state, and nothing is saved.
  @Test func textInAStateComesBackByteForByte() throws {
    let script = """
      local p = plugin "p"
      p.on("screen_enter", function(u, s)
        if s == "set" then
          p.state = { nul = "a\\0b", [""] = "e", ["\\0"] = "n", t = { ["k\\0"] = "\\0" },
            forms = { ["\\u{E9}"] = 1, ["e\\u{301}"] = 2 }, list = { "x\\0", "" } }
        elseif s == "check" then
          local st, n = p.state, 0
          for _ in pairs(st) do n = n + 1 end
          p.publish("same", n == 6 and st.nul == "a\\0b" and st[""] == "e" and st["\\0"] == "n"
            and st.t["k\\0"] == "\\0" and st.forms["\\u{E9}"] == 1 and st.forms["e\\u{301}"] == 2
            and st.list[1] == "x\\0" and st.list[2] == "" and #st.list == 2)
        elseif s == "bad-value" then p.state = { ok = 1, list = { "x", "\\xff\\xfe" } }
        elseif s == "bad-key" then p.state = { t = { ["caf\\xc3"] = 1 } }
        elseif s == "cut" then p.state = { name = ("\\u{E9}t\\u{E9}"):sub(1, 4) }
        end
      end)
      """
    let pack = try LuaRulePack(scripts: [("p.lua", script)])
    _ = pack.receive(.screenEntered("set"), usage: usage(1))
    let text = try #require(saved(pack.takeStates()).first)
    #expect(text.contains(#""nul":"a\u0000b""#), "\(text)")
    let restored = try LuaRulePack(scripts: [("p.lua", script)])
    restored.restore(states: ["lua:p/p": text])
    _ = restored.receive(.screenEntered("check"), usage: usage(2))
    #expect(restored.published["p"]?["same"] == .bool(true))
    #expect(pack.diagnostics.isEmpty && restored.diagnostics.isEmpty, "\(restored.diagnostics)")

    for (event, place) in [
      ("bad-value", "state.list[2]: a string is not UTF-8 text (byte 1 is 0xFF)"),
      ("bad-key", "state.t: a key is not UTF-8 text (byte 4 is 0xC3)"),
      ("cut", "state.name: a string is not UTF-8 text (byte 4 is 0xC3)"),
    ] {
      let bad = try LuaRulePack(scripts: [("p.lua", script)])
      _ = bad.receive(.screenEntered(event), usage: usage(3))
      #expect(saved(bad.takeStates()).isEmpty, "\(event)")
      let message = bad.diagnostics.map(\.message).joined(separator: "\n")
      #expect(message == "plugin 'p': p.lua:2: its state cannot be saved: \(place)", "\(event)")
    }
  }

  /// A listener that saves a state of `bytes` bytes, by action and at each checkpoint.
  struct Oversized: StatefulListener {
    let bytes: Int
    var wantsTicks: Bool { false }
    func restore(states: [String: String]) {}
    func receive(_ event: UsageEvent, usage: UsageFigures) -> [UsageAction] {
      [.saveState(source: "by-action", data: String(repeating: "a", count: bytes))]
    }
    func takeStates() -> [UsageAction] {
      [.saveState(source: "at-checkpoint", data: String(repeating: "b", count: bytes))]
    }
    var hasUnsavedStates: Bool { true }
  }

  /// The engine keeps a state of at most 64 KiB, however it is handed over (one check).
  @Test(arguments: [64 << 10, (64 << 10) + 1])
  func aStateOver64KiBIsNotKept(bytes: Int) throws {
    let rig = Rig()
    let engine = try rig.launch()
    try RulesInForce().change(in: engine) { $0.listeners = [Oversized(bytes: bytes)] }
    engine.record(.active)
    rig.advance(3)
    try engine.commit()
    let kept = engine.state.withLock { $0.accountant.listenerStates }
    #expect(kept.keys.sorted() == (bytes <= 64 << 10 ? ["at-checkpoint", "by-action"] : []))
    engine.terminate()
  }
}
