import Dwell
import DwellLua
import Foundation
import Testing

/// `Configuration.validate()` with a rules directory: it loads the pack and lists what
/// would keep it out at launch, with the configuration's own problems.
@Suite struct RulesDirectoryValidationTests {
  /// The problems `validate()` lists for a folder holding `scripts` and these Swift rules
  /// and levels (`nil` for a folder that does not exist).
  static func problems(
    _ scripts: [String: String]?, rules: [Rule] = [], levels: [Level] = []
  ) throws -> [String] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dwell-validate-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    if let scripts {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for (name, text) in scripts {
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
      }
    }
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .inMemory
    configuration.rules = rules
    configuration.levels = levels
    configuration.rulesDirectory = LuaRuleFolder(folder)
    do {
      try configuration.validate()
      return []
    } catch {
      return error.problems.map(\.description)
    }
  }

  @Test func aGoodFolderValidates() throws {
    #expect(
      try Self.problems(
        ["a.lua": #"unlock "lua-one" { when = { appSeconds = 1 } }"#], rules: [Rule("swift-one", when: .sessions(1))]
      ) == [])
  }

  @Test func aMissingFolderIsAProblem() throws {
    let problems = try Self.problems(nil)
    #expect(problems.count == 1)
    #expect(problems.first?.hasPrefix("rulesDirectory: ") == true, "\(problems)")
  }

  @Test func aScriptThatDoesNotLoadIsAProblemWithItsFile() throws {
    let problems = try Self.problems(["broken.lua": "unlock \"x\" { when = { appSeconds = 2 \n"])
    #expect(problems.count == 1)
    #expect(problems.first?.contains("broken.lua") == true, "\(problems)")
  }

  /// A rule the Lua loader refuses (with its file and line), and one it takes but the
  /// tracker would refuse (an empty `all`): both are listed.
  @Test(arguments: [
    (#"unlock "x" { when = { appSeconds = -1 } }"#, "a.lua:1"),
    (#"unlock "fine" { when = { appSeconds = 1 } }"# + "\n" + #"unlock "x" { when = { all = {} } }"#, "'x'"),
  ])
  func anInvalidRuleOfThePackIsListed(script: String, named: String) throws {
    let problems = try Self.problems(["a.lua": script])
    #expect(problems.count == 1, "\(problems)")
    #expect(problems.first?.contains(named) == true, "\(problems)")
  }

  @Test func anIdSharedBySwiftAndTheFolderIsListedOnce() throws {
    let problems = try Self.problems(
      ["a.lua": #"unlock "shared-id" { when = { screen = "Home", seconds = 1 } }"#],
      rules: [Rule("shared-id", when: .sessions(1)), Rule("", when: .sessions(1))])
    // The Swift rule without an id is the configuration's own problem, listed once.
    #expect(problems.count == 2, "\(problems)")
    #expect(problems.contains { $0.contains("'shared-id'") && $0.contains("repeated") })
  }

  @Test func aLevelDefinedInSwiftAndInThePackIsListed() throws {
    let problems = try Self.problems(
      ["a.lua": #"levels { { "Rookie", 0 }, { "Hero", 200 } }"#], levels: [Level("Hero", points: 100)])
    #expect(problems == ["levels: 'Hero' is repeated"])
  }
}
