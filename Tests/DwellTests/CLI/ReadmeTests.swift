import Dwell
import DwellTesting
import Foundation
import Testing

/// The README's Swift snippets, taken from README.md itself and compiled, so they cannot
/// rot; and what the "Asking how long" snippet promises, run.
@Suite struct ReadmeTests {
  /// One ```swift block of the README, with the heading it sits under.
  struct Snippet {
    var heading: String
    var code: String
    /// UIKit and SwiftUI snippets need Apple's SDKs.
    var needsAppleSDK: Bool { code.contains("import DwellUIKit") || code.contains("import DwellSwiftUI") }
    /// Lines of a package manifest (`// Package.swift` first): not code of an app's target.
    var isManifest: Bool { code.hasPrefix("// Package.swift") }
  }

  static let root = TestPaths.packageRoot

  static func snippets() throws -> [Snippet] {
    let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    var snippets: [Snippet] = []
    var heading = ""
    var code: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if var lines = code {
        if line.hasPrefix("```") {
          snippets.append(Snippet(heading: heading, code: lines.joined(separator: "\n")))
          code = nil
        } else {
          lines.append(line)
          code = lines
        }
      } else if line.hasPrefix("```swift") {
        code = []
      } else if line.hasPrefix("#") {
        heading = line.drop { $0 == "#" || $0 == " " }.description
      }
    }
    return snippets
  }

  /// What a snippet takes as given (the names it uses without declaring), by heading. A
  /// snippet under a heading missing here fails the test: say what it assumes.
  static let givens: [String: String] = [
    "Asking how long": """
    func celebrate(_ rule: String) {}
    struct FeatureJob { func run() throws {} }
    let exporter = FeatureJob()
    let file = FileHandle.standardOutput
    """,
    "Testing your unlock logic": "let configuration = Tracker.Configuration()",
    "Actions and periods": """
    var configuration = Tracker.Configuration()
    let tracker = Tracker(configuration: configuration)
    """,
    "Rules in Lua": """
    let rulesFolder = "rules/learning"
    let rulesFolderURL = URL(fileURLWithPath: rulesFolder)
    var configuration = Tracker.Configuration()
    let tracker = Tracker(configuration: configuration)
    """,
  ]

  /// The Linux snippets, each in a function of its own after its givens, type-checked by
  /// `swiftc` against the modules this test was built with.
  @Test(.enabled(if: TestEnvironment.swiftc != nil, "swiftc comes with the toolchain that runs the tests"))
  func theSnippetsCompile() throws {
    let snippets = try Self.snippets()
    #expect(snippets.count >= 5, "README.md has fewer swift blocks than it did")
    #expect(snippets.contains { $0.needsAppleSDK })
    var source = "import Dwell\nimport DwellLua\nimport DwellTesting\nimport Foundation\nimport Testing\n"
    for (index, snippet) in snippets.enumerated() where !snippet.needsAppleSDK && !snippet.isManifest {
      guard let given = Self.givens[snippet.heading] else {
        Issue.record("the snippet under '\(snippet.heading)' has no entry in ReadmeTests.givens")
        continue
      }
      let body = snippet.code.split(separator: "\n").filter { !$0.hasPrefix("import ") }
      source += "\nfunc snippet\(index)() async throws {\n" + given + "\n" + body.joined(separator: "\n") + "\n}\n"
    }
    let directory = TemporaryStore()
    let file = directory.directory + "/Readme.swift"
    try source.write(toFile: file, atomically: true, encoding: .utf8)
    let products = CommandLineTests.binary.deletingLastPathComponent()
    let result = try Subprocess.run(
      try #require(TestEnvironment.swiftc),
      ["-typecheck", "-swift-version", "6", "-I", products.appendingPathComponent("Modules").path]
        + Self.cModuleFlags(products: products) + [file])
    #expect(result.status == 0, "README snippets do not compile:\n\(result.stderr)\n\(source)")
  }

  /// Where the C modules the engine imports are declared: the system library targets'
  /// and the sandbox's module maps, or the one SwiftPM made for Lua built from source.
  static func cModuleFlags(products: URL) -> [String] {
    ["CSQLite", "CLua", "CLuaSandbox", "CSodium"].flatMap { name -> [String] in
      let generated = products.appendingPathComponent("\(name).build/module.modulemap").path
      let sources = root.appendingPathComponent("Sources/\(name)").path
      return FileManager.default.fileExists(atPath: generated)
        ? ["-Xcc", "-fmodule-map-file=\(generated)", "-Xcc", "-I\(sources)/include"] : ["-I", sources]
    }
  }

  /// What the "Asking how long" and "Testing your unlock logic" snippets promise.
  @Test func askingHowLongAndTesting() async throws {
    var configuration = Tracker.Configuration()
    configuration.rules = [
      Rule("bonus-level", when: .screenTime("Lessons", .minutes(30)), title: "Bonus level"),
      Rule("regular", when: .streak(4)),
      Rule("lessons-today", when: .screenTime("Lessons", .minutes(10)), every: .day),
    ]
    let sim = TrackerSimulation(configuration: configuration)
    for _ in 0..<4 {
      sim.use("Lessons", for: .minutes(12))
      sim.nextDay()
    }
    #expect(sim.tracker.isUnlocked("regular"))

    let tracker = sim.tracker
    #expect(tracker.time(.screen("Lessons")) == .minutes(48))
    #expect(tracker.time(.app, in: .today) == .zero)
    #expect(tracker.time(.screen("Quiz"), in: .lastDays(7)) == .zero)
    #expect(tracker.currentStreak(.screen("Lessons"), minimumPerDay: .minutes(10)) == 4)
    #expect(tracker.series(.app, lastDays: 30).count == 30)
    #expect(tracker.isUnlocked("bonus-level"))
    #expect(tracker.progress(of: "bonus-level")?.isUnlocked == true)
    #expect(tracker.progress(of: "lessons-today")?.summary == "0 min of 10 min in Lessons today, resets at midnight")
    let exported = try await tracker.export(.csv)
    #expect(exported.hasPrefix("kind,"))
    try await tracker.erase()
    #expect(tracker.time() == .zero)
  }
}
