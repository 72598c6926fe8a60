// Fuzz targets for the parsers that read input from outside: traces and rules.
//
//   scripts/fuzz trace 60     # libFuzzer for 60 s on the trace parser
//   scripts/fuzz rules 60     # ... on the JSON and Lua rules parsers, and the scripts run:
//                             # checks and plugins for a few ticks, under small limits
//
// Built normally, this is a tiny executable that runs one input file through the
// targets (so the target always compiles); scripts/fuzz builds it with -sanitize=fuzzer.
import Dwell
import DwellLua
import DwellTesting
import Foundation

/// Feeds one input to the parser selected by DWELL_FUZZ_TARGET. Any crash, hang or
/// sanitizer report is a bug; thrown errors are the parsers doing their job.
func fuzzOne(_ bytes: UnsafeRawBufferPointer) {
  let text = String(decoding: bytes, as: UTF8.self)
  switch ProcessInfo.processInfo.environment["DWELL_FUZZ_TARGET"] ?? "trace" {
  case "rules":
    _ = try? Rule.parseJSON(text)
    if let pack = try? LuaRulePack(scripts: [("fuzz.lua", text)], limits: scriptLimits) { runScripts(pack) }
  default:
    if let events = try? TraceParser.parse(text), events.count < 2_000 {
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dwell-fuzz-\(getpid())")
      try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let store = directory.appendingPathComponent("s.sqlite").path
      Store.removeFiles(at: store)
      _ = try? Replayer(storePath: store).run(events)
      Store.removeFiles(at: store)
    }
  }
}

/// Small limits, so that one input runs in milliseconds.
let scriptLimits = ScriptLimits(
  memory: 1 << 20, instructionsPerCall: 100_000, instructionsPerTick: 400_000, timePerCall: .milliseconds(50),
  timePerTick: .milliseconds(100), instructionsToLoad: 1_000_000, timeToLoad: .seconds(2))

/// Runs a pack's checks and plugins for a few ticks of a manual clock, with visits, host
/// values and functions: whatever the script does, the host must come back.
func runScripts(_ pack: LuaRulePack) {
  let clock = ManualClock()
  pack.setHostValue("value", .list([1, "x"]))
  pack.setHostFunction("echo") { $0.first ?? .null }
  pack.restore(states: ["lua:fuzz/fuzz": #"{"a":[1,{"b":2}]}"#])
  guard
    let engine = try? Engine(
      store: Store(path: ":memory:"),
      configuration: .init(rules: pack.rules, listeners: pack.plugins.isEmpty ? [] : [pack]), clock: clock,
      wallClock: ManualWallClock(clock: clock), scheduler: clock)
  else { return }
  engine.record(.active)
  for second in 0..<3 {
    engine.record(.appear(screen: "S\(second % 2)", id: ScreenInstance("\(second)")))
    clock.advance(by: .seconds(1))
  }
  engine.terminate()
  _ = pack.diagnostics
  _ = pack.published
}

#if FUZZING
  @_silgen_name("LLVMFuzzerRunDriver")
  func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  /// SwiftPM links an executable's entry point under this name; hand over to libFuzzer.
  @_cdecl("dwell_fuzz_main")
  public func fuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  ) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
      fuzzOne(UnsafeRawBufferPointer(start: data, count: size))
      return 0
    }
  }
#endif

#if !FUZZING
  /// Without the fuzzer: run the files given as arguments through the targets.
  @main
  struct FuzzOnce {
    static func main() {
      for path in CommandLine.arguments.dropFirst() {
        guard let data = FileManager.default.contents(atPath: path) else { continue }
        data.withUnsafeBytes { fuzzOne($0) }
      }
    }
  }
#endif
