import DwellLua
import DwellTesting
import Foundation
import Testing

@testable import Dwell

@Suite struct GamificationTests {
  static let pack = """
    achievement "first-lesson" { title = "First lesson", points = 10, when = { screen = "Lessons", visits = 1 } }
    achievement "marathon" {
      title = "Lesson marathon", hidden = true,
      tiers = {
        { "bronze", when = { screen = "Lessons", seconds = minutes(1) }, points = 5 },
        { "silver", when = { screen = "Lessons", seconds = minutes(5) }, points = 20, title = "Silver marathon" },
      },
    }
    levels { { "Beginner", 0 }, { "Learner", 30 }, { "Scholar", 100 } }
    -- The plugin unlocks it (a plugin may unlock only its own pack's rules).
    unlock "night-owl" { title = "Night owl", when = { sessions = 1000000 } }

    local owl = plugin "night-owl"
    owl.on("tick", function(u)
      if u.hour >= 23 then owl.state.seconds = (owl.state.seconds or 0) + 1 end
      if (owl.state.seconds or 0) >= 600 and not owl.state.done then
        owl.state.done = true
        owl.award(25, "ten minutes after 23:00")
        owl.unlock("night-owl")
        owl.notify("Night owl", "10 minutes after 23:00")
      end
    end)

    local visits = plugin "visit-counter"
    visits.on("screen_enter", function(u, screen)
      visits.state[screen] = (visits.state[screen] or 0) + 1
      visits.publish("last", screen)
      if host.subscriber and screen == "Shop" then visits.notify("Thanks for subscribing") end
    end)
    """

  @Test func achievementsTiersPointsAndLevels() throws {
    let pack = try LuaRulePack(scripts: [("pack.lua", Self.pack)])
    #expect(pack.rules.map(\.id) == ["first-lesson", "marathon/bronze", "marathon/silver", "night-owl"])
    #expect(pack.rules[2].title == "Silver marathon")
    #expect(pack.rules[1].isHidden && pack.rules[1].achievement == "marathon" && pack.rules[1].tier == "bronze")
    #expect(pack.levels.map(\.name) == ["Beginner", "Learner", "Scholar"])
    #expect(pack.plugins == ["night-owl", "visit-counter"])
    let rig = Rig(configuration: RuleSet(pack: pack).configuration(base: .init()))
    let engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "Lessons", id: ScreenInstance("l")))
    rig.advance(120)
    let report = engine.report()
    #expect(report.unlocks["marathon/bronze"]?.mono.seconds == 60)
    #expect(report.unlocks["marathon/silver"] == nil)
    #expect(report.points == 15)
    #expect(Level.reached(report.points, in: pack.levels)?.level.name == "Beginner")
    rig.advance(240)
    #expect(engine.report().points == 35)
    #expect(Level.reached(35, in: pack.levels)?.next?.name == "Scholar")
  }

  @Test func aPluginAwardsUnlocksNotifiesAndKeepsItsStateAcrossRestarts() throws {
    // 22:55 in Berlin.
    let rig = Rig(wall: "2026-05-04T20:55:00Z")
    let notes = LockedBox<[String]>([])
    func launch() throws -> (Engine, LuaRulePack) {
      let pack = try LuaRulePack(scripts: [("pack.lua", Self.pack)])
      rig.configuration = RuleSet(pack: pack).configuration(base: .init())
      let engine = try rig.launch()
      engine.onNotification { note in notes.update { $0.append(note.title) } }
      return (engine, pack)
    }
    var (engine, _) = try launch()
    engine.record(.active)
    rig.advance(5 * 60 + 300)  // five minutes before 23:00, then 300 s after
    engine.abandon()  // a crash: the plugin's state was journaled
    (engine, _) = try launch()
    engine.record(.active)
    // 301 ticks after 23:00 so far (a crash may lose up to 2 s of them): 299 to go, or a few more.
    rig.advance(297)
    #expect(engine.report().unlocks["night-owl"] == nil)
    rig.advance(4)
    let report = engine.report()
    #expect(report.unlocks["night-owl"] != nil)
    #expect(report.points == 25)
    #expect(engine.points == report.points)
    #expect(notes.value == ["Night owl"])
    engine.terminate()
    #expect(try UsageReport(store: Store(path: rig.store.path, readOnly: true)).points == 25)
  }

  @Test func hostValuesFunctionsAndPublishedValues() throws {
    let pack = try LuaRulePack(
      scripts: [
        ("pack.lua", Self.pack),
        ("checks.lua", #"unlock "vip" { check = function(u) return host.is_vip(u.app.sessions) end }"#),
      ])
    pack.setHostValue("subscriber", .bool(true))
    pack.setHostFunction("is_vip") { arguments in
      guard case .number(let sessions)? = arguments.first else { return .bool(false) }
      return .bool(sessions >= 1)
    }
    let notes = LockedBox<[String]>([])
    let rig = Rig(configuration: RuleSet(pack: pack).configuration(base: .init()))
    let engine = try rig.launch()
    engine.onNotification { note in notes.update { $0.append(note.title) } }
    engine.record(.active)
    engine.record(.appear(screen: "Shop", id: ScreenInstance("s")))
    #expect(engine.report().unlocks["vip"] != nil)
    #expect(pack.published["visit-counter"]?["last"] == .string("Shop"))
    #expect(notes.value == ["Thanks for subscribing"])
    #expect(pack.diagnostics.isEmpty)
  }

  @Test func pluginStateSurvivesAReload() throws {
    let rig = Rig()
    let first = try LuaRulePack(scripts: [("pack.lua", Self.pack)])
    rig.configuration = RuleSet(pack: first).configuration(base: .init())
    let engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "Home", id: ScreenInstance("h1")))
    let second = try LuaRulePack(scripts: [("pack.lua", Self.pack)])
    try RulesInForce().change(in: engine) { $0.pack = second }
    engine.record(.appear(screen: "Home", id: ScreenInstance("h2")))
    engine.terminate()
    // The second pack picked up the first one's state: two visits of Home, one in each.
    let saved = try Store(path: rig.store.path, readOnly: true).load().listenerStates
    #expect(saved["lua:pack/visit-counter"] == #"{"Home":2}"#)
  }

  /// What a handler asked for before it raised (an award, an unlock, a notification) is
  /// dropped with the call: none of it reaches the app, and the plugin is disabled. What it
  /// published, and its state as the error left it, stay. Without the error, all arrive.
  @Test(arguments: [true, false])
  func aHandlerThatRaisesDropsWhatItQueued(raises: Bool) throws {
    let pack = try LuaRulePack(scripts: [
      (
        "pack.lua",
        """
        unlock "prize" { check = function(u) return false end }
        local p = plugin "eager"
        p.on("screen_enter", function(u, name)
          p.state.entered = (p.state.entered or 0) + 1
          p.award(5, "entered")
          p.unlock("prize")
          p.notify("Welcome to " .. name)
          p.publish("seen", name)
          if \(raises) then error("then it fails") end
        end)
        """
      )
    ])
    let notes = LockedBox<[String]>([])
    let rig = Rig(configuration: RuleSet(pack: pack).configuration(base: .init()))
    let engine = try rig.launch()
    engine.onNotification { note in notes.update { $0.append(note.title) } }
    engine.record(.active)
    engine.record(.appear(screen: "Quiz", id: ScreenInstance("q")))
    engine.record(.appear(screen: "Home", id: ScreenInstance("h")))  // runs only if not disabled
    let report = engine.report()
    #expect(report.points == (raises ? 0 : 10))
    #expect((report.unlocks["prize"] != nil) == !raises)
    #expect(notes.value == (raises ? [] : ["Welcome to Quiz", "Welcome to Home"]))
    #expect(pack.diagnostics.map(\.message) == (raises ? ["plugin 'eager': pack.lua:9: then it fails"] : []))
    #expect(pack.published["eager"]?["seen"] == .string(raises ? "Quiz" : "Home"))
    engine.terminate()
    let saved = try Store(path: rig.store.path, readOnly: true).load().listenerStates
    #expect(saved["lua:pack/eager"] == (raises ? #"{"entered":1}"# : #"{"entered":2}"#))
  }

  /// A plugin that unlocks an id no rule has is told the nearest id its pack declares.
  @Test func aPluginUnlockingAnUnknownIdIsToldTheNearestOne() throws {
    let pack = try LuaRulePack(scripts: [
      (
        "pack.lua",
        """
        unlock "night-owl-theme" { check = function(u) return false end }
        local p = plugin "owl"
        p.on("screen_enter", function(u) p.unlock("night-owl-them") end)
        """
      )
    ])
    let rig = Rig(configuration: RuleSet(pack: pack).configuration(base: .init()))
    let engine = try rig.launch()
    engine.record(.active)
    engine.record(.appear(screen: "Home", id: ScreenInstance("h")))
    #expect(
      pack.diagnostics.map(\.message) == [
        "plugin 'owl': pack.lua:3: unlock 'night-owl-them': not a rule of this pack (did you mean 'night-owl-theme'?); "
          + "a plugin unlocks only a rule its own pack declares"
      ])
  }

  @Test func aHostilePluginIsContained() throws {
    let pack = try LuaRulePack(
      scripts: [
        (
          "hostile.lua",
          """
          local hog = plugin "hog"
          hog.on("screen_enter", function(u) for i = 1, 100000 do hog.state[i] = string.rep("x", 100) end end)
          local spin = plugin "spin"
          spin.on("screen_enter", function(u) while true do end end)
          local good = plugin "good"
          good.on("screen_enter", function(u, s) good.award(1, s) end)
          """
        )
      ], limits: ScriptLimits(memory: 4 << 20, instructionsPerCall: 200_000))
    let rig = Rig(configuration: .init(listeners: [pack]))
    let engine = try rig.launch()
    engine.record(.active)
    for i in 0..<3 { engine.record(.appear(screen: "S\(i)", id: ScreenInstance("\(i)"))) }
    #expect(engine.report().points == 3)
    let failed = pack.diagnostics.map(\.message)
    #expect(failed.contains { $0.contains("plugin 'hog'") })
    #expect(failed.contains { $0.contains("plugin 'spin'") && $0.contains("instruction budget") })
    #expect(failed.count == 2)  // disabled after the first failure
  }
}
