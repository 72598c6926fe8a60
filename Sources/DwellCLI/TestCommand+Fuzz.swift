internal import DwellBalance
internal import DwellHarness
internal import Foundation

/// `dwell test PACK --fuzz N [--seed S]`: random traces of the pack's screens with clock
/// jumps, travel, DST changes, crashes and long gaps, checked against the invariants every
/// pack keeps; the first failure is shrunk and written as a scenario.
extension TestCommand {
  static let fuzzOptions: [Command.Option] = [
    .value("fuzz", "N", "Run N random traces of the pack's screens instead, checking its invariants"),
    .value("seed", "S", "The seed of --fuzz: the same seed, the same traces", default: "a random one, printed"),
    .value("fuzz-out", "FILE", "Where --fuzz writes a failure's scenario", default: "PACK/tests/fuzz-S-T.scenario"),
  ]

  static let fuzzSection = Command.Section(
    "FUZZING",
    """
    --fuzz N runs N random traces (at most 30 commands each) of the screens the
    rules name and those of PACK/balance/personas.lua: waits, crashes, quits, long
    gaps, days skipped, clock jumps, travel across time zones and starts near DST
    changes. After each it checks that no rule unlocked twice, none before its
    condition held, a recurring rule was earned at most once a period, and that
    'dwell replay' of the recorded trace gives the same unlocks. The first trace
    that breaks one is shrunk and written as a scenario ending in 'expect
    invariants', which 'dwell test PACK' then runs. Exit 1 when one breaks.
    """)

  static func fuzz(_ args: Arguments, pack: String, count text: String) throws {
    guard let count = Int(text), (1...100_000).contains(count) else {
      throw UsageError("--fuzz takes a number of traces from 1 to 100000, not '\(text)'")
    }
    let seed: UInt64
    if let given = args.value("seed") {
      guard let value = UInt64(given) else { throw UsageError("--seed takes a whole number, not '\(given)'") }
      seed = value
    } else {
      seed = UInt64.random(in: 0...999_999)
    }
    let personas = BalanceCommand.defaultPersonas(for: pack)
    var screens: [String] = []
    if FileManager.default.fileExists(atPath: personas) {
      do {
        screens = try PersonaFile.load(personas).personas.flatMap { $0.screens.map(\.name) }
      } catch {
        throw CommandFailure("invalid personas: \(error)")
      }
    }
    let result: Fuzzer.Result
    do {
      result = try Fuzzer.run(pack: pack, options: .init(traces: count, seed: seed, screens: screens))
    } catch {
      throw CommandFailure("\(pack): \(error.message)")
    }
    let color = Terminal.wantsColor
    func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    guard let failure = result.failure else {
      Terminal.print(
        "\(paint("PASS", "32"))  \(result.traces) fuzz trace\(result.traces == 1 ? "" : "s") (seed \(seed)): "
          + "\(result.commands) commands, \(result.unlocks) unlocks, every invariant held")
      return
    }
    let balance = (personas as NSString).deletingLastPathComponent  // PACK/balance, or beside a file
    let tests = (balance as NSString).deletingLastPathComponent + "/tests"
    let path = args.value("fuzz-out") ?? "\(tests)/fuzz-\(seed)-\(failure.trace + 1).scenario"
    if args.value("fuzz-out") == nil {
      try? FileManager.default.createDirectory(atPath: tests, withIntermediateDirectories: true)
    }
    try Files.write(failure.scenario, to: path, sparing: Output.packFiles(pack) + [personas])
    Terminal.print("\(paint("FAIL", "31"))  fuzz trace \(failure.trace + 1) of \(count) (seed \(seed))")
    Terminal.show("      \(failure.breach)")
    Terminal.show(
      "      shrunk from \(failure.originalSteps) to \(failure.steps) command\(failure.steps == 1 ? "" : "s"), "
        + "written to \(path):")
    for line in failure.scenario.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      Terminal.show("        \(line)")
    }
    throw CommandFailure("an invariant broke; 'dwell test \(pack)' runs the scenario")
  }
}
