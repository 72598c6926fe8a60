import Foundation
import Testing

/// The conformance suite of the accounting contract (`Conformance/`, see its README), run
/// through the built `dwell replay` as the shared suite's `run` script runs it: one test per
/// case and rules file, per invalid trace and per invalid rules file.
@Suite struct ConformanceTests {
  /// The folder of cases, read where it is in the checkout (the package excludes it from
  /// the target, so it is neither compiled nor copied).
  static let root: URL? = {
    let folder = TestPaths.testTarget.appendingPathComponent("Conformance")
    return FileManager.default.fileExists(atPath: folder.path) ? folder : nil
  }()

  static func files(in folder: String) -> [URL] {
    guard let directory = root?.appendingPathComponent(folder) else { return [] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.sorted().map { directory.appendingPathComponent($0) }
  }

  /// One replay of a case folder, with one of its rules files or none.
  struct Case: CustomTestStringConvertible, Sendable {
    var folder: URL
    var rules: URL?
    var testDescription: String {
      folder.lastPathComponent + (rules.map { " (\($0.lastPathComponent))" } ?? "")
    }

    /// Each rules file of every case folder on its own; a folder without one is replayed
    /// without rules.
    static var all: [Case] {
      files(in: "cases").flatMap { folder -> [Case] in
        let rules = ["rules.json", "rules.lua"].map { folder.appendingPathComponent($0) }
          .filter { FileManager.default.fileExists(atPath: $0.path) }
        return rules.isEmpty ? [Case(folder: folder)] : rules.map { Case(folder: folder, rules: $0) }
      }
    }
  }

  /// A file the replay must reject, and what its error must say.
  struct Rejected: CustomTestStringConvertible, Sendable {
    var file: URL
    var says: String
    var testDescription: String { file.lastPathComponent }

    /// Invalid traces: the error names the line in `NAME.line`.
    static var traces: [Rejected] {
      files(in: "invalid").filter { $0.pathExtension == "jsonl" }.map { file in
        let line = firstLine(file.deletingPathExtension().appendingPathExtension("line"))
        return Rejected(file: file, says: "line \(line)")
      }
    }

    /// Invalid rules files: the error contains the text in `NAME.ext.says` or `NAME.says`.
    static var rules: [Rejected] {
      files(in: "invalid-rules").filter { ["json", "lua"].contains($0.pathExtension) }.map { file in
        let own = file.appendingPathExtension("says")
        let says =
          FileManager.default.fileExists(atPath: own.path)
          ? own : file.deletingPathExtension().appendingPathExtension("says")
        return Rejected(file: file, says: firstLine(says))
      }
    }

    static func firstLine(_ file: URL) -> String {
      let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
      return text.split(separator: "\n").first.map(String.init) ?? ""
    }
  }

  /// The suite is there: an empty folder would make every parameterized test below pass.
  @Test func theCasesAreInTheRepository() throws {
    #expect(Self.root != nil, "Tests/DwellTests/Conformance is missing")
    #expect(Case.all.count >= 22)
    #expect(Case.all.contains { $0.rules?.pathExtension == "lua" })
    #expect(Rejected.traces.count >= 14)
    #expect(Rejected.rules.count >= 10)
    #expect((Rejected.traces + Rejected.rules).allSatisfy { !$0.says.isEmpty && $0.says != "line " })
  }

  @Test(arguments: Case.all) func replayGivesTheExpectedReport(_ test: Case) throws {
    let argumentsFile = test.folder.appendingPathComponent("args")
    let extra = ((try? String(contentsOf: argumentsFile, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace)
      .map(String.init)
    let rules = test.rules.map { ["--rules", $0.path] } ?? []
    let trace = test.folder.appendingPathComponent("trace.jsonl")
    let run = try CommandLineTests.dwell(["replay", trace.path] + extra + rules + ["--json"])
    try #require(run.status == 0, "replay exited with \(run.status): \(run.stderr.prefix(300))")
    let expected = try JSONSerialization.jsonObject(
      with: Data(contentsOf: test.folder.appendingPathComponent("expected.json")))
    let got = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    let budget = try ConformanceComparison.budget(
      trace: String(contentsOf: trace, encoding: .utf8), arguments: extra)
    let comparison = ConformanceComparison(
      expected: expected as? [String: Any] ?? [:], got: got as? [String: Any] ?? [:], budget: budget)
    #expect(comparison.differences.isEmpty, "\(comparison.differences.prefix(15).joined(separator: "\n"))")
  }

  @Test(arguments: Rejected.traces) func anInvalidTraceIsRejectedAtItsLine(_ test: Rejected) throws {
    let run = try CommandLineTests.dwell(["replay", test.file.path, "--json"])
    #expect(run.status != 0, "accepted an invalid trace")
    #expect(run.stderr.contains(test.says), "the error does not name \(test.says): \(run.stderr.prefix(200))")
  }

  @Test(arguments: Rejected.rules) func anInvalidRulesFileIsRejectedWithItsReason(_ test: Rejected) throws {
    let trace = try #require(Self.root).appendingPathComponent("cases/01-basic/trace.jsonl")
    let run = try CommandLineTests.dwell(["replay", trace.path, "--rules", test.file.path, "--json"])
    #expect(run.status != 0, "accepted an invalid rules file")
    #expect(run.stderr.contains(test.says), "the error does not mention '\(test.says)': \(run.stderr.prefix(200))")
  }
}
