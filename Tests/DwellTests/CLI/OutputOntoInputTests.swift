import DwellTesting
import Foundation
import Testing

/// A command never writes its output onto a file it reads: `report S --html S`, `export S
/// --out S`, sim's `record S` with `--store S` (or onto its script), `test --junit` onto a
/// scenario all exited 0 and destroyed the input. The same file is found by device and
/// inode, so a link to the store is refused too.
@Suite struct OutputOntoInputTests {
  /// A folder with a store that holds a session, and the learning pack beside it.
  static func storeAndPack() throws -> (dir: TemporaryStore, store: String, pack: String) {
    let dir = try LineEndTests().pack()
    let store = dir.directory + "/usage.sqlite"
    let script = try CommandLineTests.write("open Lessons\nwait 30m\n", to: dir, name: "make.txt")
    let made = try CommandLineTests.dwell(["sim", "--rules", dir.directory, "--store", store, "--script", script])
    #expect(made.status == 0, "\(made.stderr)")
    try "open Lessons\nexpect sessions 1\n".write(
      toFile: dir.directory + "/tests/one.scenario", atomically: true, encoding: .utf8)
    return (dir, store, dir.directory)
  }

  static func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  @Test(arguments: [
    "report-html", "report-html-link", "export-out", "export-out-wal", "test-junit", "record-store", "record-script",
  ])
  func anOutputOntoAnInputIsRefusedAndTheInputKept(kind: String) throws {
    let (dir, store, pack) = try Self.storeAndPack()
    let link = dir.directory + "/link.sqlite"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: store)
    let scenario = pack + "/tests/one.scenario"
    let script = dir.directory + "/script.txt"
    let arguments: [String]
    let victim: String
    switch kind {
    case "report-html": (arguments, victim) = (["report", store, "--html", store], store)
    case "report-html-link": (arguments, victim) = (["report", store, "--html", link], store)
    case "export-out": (arguments, victim) = (["export", store, "--format", "csv", "--out", store], store)
    case "export-out-wal":
      // A -wal file of the store (as a reader may leave one) is the store's too.
      try Data("wal".utf8).write(to: URL(fileURLWithPath: store + "-wal"))
      (arguments, victim) = (["export", store, "--format", "json", "--out", store + "-wal"], store + "-wal")
    case "test-junit": (arguments, victim) = (["test", pack, "--junit", scenario], scenario)
    case "record-store":
      try "open Lessons\nrecord \(store)\n".write(toFile: script, atomically: true, encoding: .utf8)
      (arguments, victim) = (["sim", "--rules", pack, "--store", store, "--script", script], store)
    default:
      try "open Lessons\nrecord \(script)\n".write(toFile: script, atomically: true, encoding: .utf8)
      (arguments, victim) = (["sim", "--rules", pack, "--script", script], script)
    }
    let before = Self.contents(victim)
    let run = try CommandLineTests.dwell(arguments)
    #expect(run.status == 1, "\(kind): \(run.stdout)")
    #expect(run.stderr.contains("will not write"), "\(kind): \(run.stderr)")
    #expect(run.stderr.contains("which this command reads"), "\(kind): \(run.stderr)")
    if kind != "record-store" {
      // The simulator itself writes the store it keeps; every other input is untouched.
      #expect(Self.contents(victim) == before, "\(kind) changed \(victim)")
    }
    #expect(try CommandLineTests.dwell(["check", store]).status == 0, "\(kind) damaged the store")
  }

  /// Another file is still written, and an existing one is replaced whole.
  @Test func anOutputElsewhereIsWritten() throws {
    let (dir, store, _) = try Self.storeAndPack()
    let out = try CommandLineTests.write(String(repeating: "old ", count: 10_000), to: dir, name: "out.csv")
    let run = try CommandLineTests.dwell(["export", store, "--format", "csv", "--out", out])
    #expect(run.status == 0, "\(run.stderr)")
    let text = String(decoding: Self.contents(out) ?? Data(), as: UTF8.self)
    #expect(!text.contains("old"))
    #expect(text.contains("Lessons"))
  }
}
