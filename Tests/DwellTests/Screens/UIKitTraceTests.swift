import Dwell
import Foundation
import Testing

/// The UIKit adapter's decisions (ScreenCoordinator.handle), run against UIKit's callback
/// order: the cases of ../shared/uikit-traces copied into UIKitTraces/ (01-12), the project's
/// own (13 on: written from that README's policy by someone who had not read the adapter), and
/// every case under the folder named by DWELL_UIKIT_TRACES when it is set.
@Suite struct UIKitTraceTests {
  static let folder = TestPaths.testTarget.appendingPathComponent("UIKitTraces")
    .path

  static func cases(in folder: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { FileManager.default.fileExists(atPath: folder + "/" + $0 + "/trace.jsonl") }.sorted()
  }

  @Test func theTwelvePublicCasesAreHere() {
    let numbers = Set(Self.cases(in: Self.folder).compactMap { Int($0.prefix(2)) })
    #expect(Set(1...12).isSubset(of: numbers))
    #expect(numbers.count >= 32)
  }

  @Test(arguments: cases(in: folder))
  func publicCase(_ name: String) throws {
    let differences = try UIKitTraceRunner().differences(inCase: Self.folder + "/" + name)
    #expect(differences.isEmpty, "\(name): \(differences.joined(separator: "; "))")
  }

  /// Every case folder under `DWELL_UIKIT_TRACES`, one line each: `uikit-trace NAME: ok` or
  /// `uikit-trace NAME: FAIL what differs`.
  @Test func casesOfTheFolderNamedByTheEnvironment() {
    guard let folder = ProcessInfo.processInfo.environment["DWELL_UIKIT_TRACES"], !folder.isEmpty else { return }
    let names = Self.cases(in: folder)
    #expect(!names.isEmpty, "DWELL_UIKIT_TRACES=\(folder) holds no case folder with a trace.jsonl")
    var failed: [String] = []
    for name in names {
      let result: String
      do {
        let differences = try UIKitTraceRunner().differences(inCase: folder + "/" + name)
        result = differences.isEmpty ? "ok" : "FAIL " + differences.joined(separator: "; ")
      } catch {
        result = "FAIL \(error)"
      }
      print("uikit-trace \(name): \(result)")
      if result != "ok" { failed.append(name) }
    }
    #expect(failed.isEmpty, "failed: \(failed.joined(separator: ", "))")
  }

  @Test func aMalformedLineIsRefusedWithItsFileAndLine() throws {
    let store = TemporaryStore()
    let path = store.directory + "/trace.jsonl"
    let launch = #"{"t": 0.0, "call": "launch", "wall": "2026-05-04T08:00:00+02:00", "tz": "Europe/Berlin"}"#
    let bad: [(String, String)] = [
      ("{\"t\": 1, \"call\": \"sceneWillConnect\", \"scene\": \"s1\"", "not JSON"),
      (#"[1, 2]"#, "not a JSON object"),
      (#"{"t": "1", "call": "touch", "scene": "s1", "window": null}"#, "t must be a number"),
      (#"{"t": 1, "call": "sceneFlew", "scene": "s1"}"#, "unknown call \"sceneFlew\""),
      (#"{"t": 1, "call": "sceneDidBecomeActive"}"#, "missing scene"),
      (#"{"t": 1, "call": "sceneDidBecomeActive", "scene": "s1", "role": "x"}"#, "has no field role"),
      (#"{"t": 1, "call": "viewDidAppear", "vc": "a"}"#, "missing"),
      (#"{"t": -1, "call": "terminate"}"#, "at least 0"),
    ]
    for (line, reason) in bad {
      try (launch + "\n\n" + line + "\n").write(toFile: path, atomically: true, encoding: .utf8)
      #expect {
        _ = try UIKitTraceReader.read(path: path)
      } throws: { error in
        let text = "\(error)"
        return text.hasPrefix(path + ":3: ") && text.contains(reason)
      }
    }
    let flag = #""animated": 1, "isMovingToParent": false, "isMovingFromParent": false, "isBeingPresented": false"#
    let appear =
      #"{"t": 1, "call": "viewDidAppear", "vc": "a", "class": "A", "superclasses": [], "bundle": "app", "parent": null, "presenting": null, "style": null, "window": "w", "windowScene": "s", "#
      + flag + #", "isBeingDismissed": false}"#
    try (launch + "\n" + appear + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    #expect {
      _ = try UIKitTraceReader.read(path: path)
    } throws: { "\($0)" == path + ":2: animated must be true or false" }
    let early = #"{"t": 0.5, "call": "terminate"}"#
    try (#"{"t": 1, "call": "terminate"}"# + "\n" + early + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    #expect {
      _ = try UIKitTraceReader.read(path: path)
    } throws: { "\($0)".hasPrefix(path + ":2: t 0.5 is before 1") }
  }
}
