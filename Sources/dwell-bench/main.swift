// dwell-bench: what Dwell costs, side by side with the alternatives, in one run.
//
//   swift run -c release dwell-bench            # the table
//   swift run -c release dwell-bench --json     # one JSON object
//   swift run -c release dwell-bench --quick    # tiny sizes (a smoke run for CI)
//   swift run -c release dwell-bench --scale 10 # the store at 10x: 10 heavy years, 10M visits
//   swift run -c release dwell-bench --simulation  # only the simulation figures (`dwell balance`);
//                                                  # `--simulation events` or `balance`: one half of them
//   swift run -c release dwell-bench --public   # only the hot path: the engine's and the public API's
//   swift run -c release dwell-bench --export   # only the year store and the export's peak memory
//   swift run -c release dwell-bench --prompt   # only the unlock latency and background after a burst
//
// Helpers are in Measuring.swift, the output in Results.swift, the Lua figures in
// LuaFigures.swift, the public API's hot path in PublicPath.swift, the simulation
// figures (`dwell balance`) in Simulation.swift, the unlock latency and the background
// after a burst in PromptFigures.swift, the year store in YearStore.swift and the
// export's peak memory in ExportFigures.swift.
import CSQLite
import Dwell
import DwellLua
import DwellTesting
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--export-child" {
  try exportChild(Array(arguments.dropFirst()))
  exit(0)
}
let quick = arguments.contains("--quick")
let json = arguments.contains("--json")
/// `--simulation [events|balance]`: only the simulation figures (they take most of a full
/// run), or only the engine's events per second, or only the balance runs.
let simulationOnly = arguments.contains("--simulation")
/// `--public`: only the clock, the engine's hot path and the public API's.
let publicOnly = arguments.contains("--public")
/// `--export`: only the year store and the export figures.
let exportOnly = arguments.contains("--export")
/// `--prompt`: only the unlock latency and `record(.background)` after a burst.
let promptOnly = arguments.contains("--prompt")
let simulationPart = arguments.firstIndex(of: "--simulation").flatMap { arguments.dropFirst($0 + 1).first }
  .flatMap { SimulationPart(rawValue: $0) }
/// `--scale N`: N heavy years of N million visits, to show how costs grow with data.
let scale =
  arguments.firstIndex(of: "--scale").flatMap { arguments.dropFirst($0 + 1).first }.flatMap { Int($0) }
  .map { max(1, min($0, 1000)) } ?? 1
let yearVisits = quick ? 20_000 : 1_000_000 * scale
let storeDays = 365 * scale
let screensCount = 50
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dwell-bench-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

let packPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("rules/learning").path
let packsPath = packPath.replacingOccurrences(of: "/rules/learning", with: "/rules")

if exportOnly {
  let path = directory.appendingPathComponent("year.sqlite").path
  _ = try buildYearStore(try Store(path: path), visits: yearVisits, days: storeDays, screens: screensCount)
  try exportFigures(store: path, scratch: directory)
  printResults()
  try? FileManager.default.removeItem(at: directory)
  exit(0)
}

if promptOnly {
  promptFigures(quick: quick, scratch: directory)
  printResults()
  try? FileManager.default.removeItem(at: directory)
  exit(0)
}

if simulationOnly {
  try simulationFigures(quick: quick, packs: packsPath, scratch: directory, only: simulationPart)
  printResults()
  try? FileManager.default.removeItem(at: directory)
  exit(0)
}

// MARK: The floor: one clock read

let clock = measure(samples: 2000, batch: 1000) { _ = system.now() }
report("clock_read_ns", clock.median)

// MARK: The hot path: a screen transition, with the writer running

log("hot path...")
let hotStore = try Store(path: directory.appendingPathComponent("hot.sqlite").path)
let hotEngine = try Engine(store: hotStore)
hotEngine.record(.active)
var flip = false
let ids = [ScreenInstance(number: 1), ScreenInstance(number: 2)]
hotEngine.record(.appear(screen: "Home", id: ids[0]))
@MainActor func transition() {
  let (from, to) = flip ? (ids[1], ids[0]) : (ids[0], ids[1])
  hotEngine.record(.appear(screen: flip ? "Home" : "Lessons", id: to))
  hotEngine.record(.disappear(id: from))
  flip.toggle()
}
// The median over batches of 100 (the timer's own cost amortised); the 99th percentile over
// single transitions (timer included: an upper bound).
// An app makes a few transitions a second; the benchmark makes millions, twenty times what
// the writer can store, so it lets the writer catch up (untimed) every 10 samples, as it
// would between real transitions, and folds every 500 (the most visits it then holds, 50,000,
// stays under the bound past which visit rows are not kept).
var catchUps = 0
@MainActor func catchUp() {
  hotEngine.process()
  catchUps += 1
  if catchUps % 50 == 0 { try? hotEngine.commit() }
}
let hotMedian = measure(samples: quick ? 2_000 : 20_000, batch: 100, between: catchUp, transition).median
let hot = (median: hotMedian, p99: measure(samples: quick ? 20_000 : 200_000, between: catchUp, transition).p99)
// An action (`record(.action(...))`): one call, a clock read and an append, the writer
// catching up (untimed) as between transitions. A transition is two calls.
@MainActor func action() { hotEngine.record(.action("quiz_done")) }
let actionMedian = measure(samples: quick ? 2_000 : 20_000, batch: 100, between: catchUp, action).median
if hotEngine.droppedVisitRecords > 0 {
  log("the writer fell behind: \(hotEngine.droppedVisitRecords) visit rows not kept")
}
hotEngine.terminate()
report("hot_path_ns", hot.median, target: "≤ 250", pass: hot.median <= 250)
report("hot_path_p99_ns", hot.p99, target: "≤ 2000", pass: hot.p99 <= 2000)
report("action_ns", actionMedian, target: "≤ hot_path_ns", pass: actionMedian <= hot.median)

// MARK: The public path: what an app pays per call of Tracker's recording methods

publicFigures(quick: quick, scratch: directory)
if publicOnly {
  printResults()
  try? FileManager.default.removeItem(at: directory)
  exit(0)
}

// MARK: Prompt unlocks, and the background after a burst

promptFigures(quick: quick, scratch: directory)

// MARK: The alternatives

log("alternatives...")
let defaults = UserDefaults(suiteName: "dwell-bench-\(getpid())") ?? .standard
@MainActor func seed(sync: Bool) -> Double {
  measure(samples: quick ? 50 : 300) {
    let seconds = defaults.double(forKey: "screen.Lessons")
    defaults.set(seconds + 1.5, forKey: "screen.Lessons")
    if sync { defaults.synchronize() }
  }.median
}
let userDefaultsSync = seed(sync: true)
let userDefaultsNoSync = seed(sync: false)
defaults.removePersistentDomain(forName: "dwell-bench-\(getpid())")

var naive: OpaquePointer?
sqlite3_open(directory.appendingPathComponent("naive.sqlite").path, &naive)
sqlite3_exec(
  naive, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; CREATE TABLE t(screen TEXT, ms INTEGER)", nil, nil, nil)
let naiveInsert = measure(samples: quick ? 200 : 2000) {
  sqlite3_exec(naive, "INSERT INTO t VALUES('Lessons', 1500)", nil, nil, nil)
}.median
sqlite3_close(naive)

report(
  "seed_userdefaults_ns", userDefaultsSync, target: "≥ 1000 × hot path", pass: userDefaultsSync >= 1000 * hot.median)
report("seed_userdefaults_nosync_ns", userDefaultsNoSync)
report("naive_sqlite_ns", naiveInsert, target: "≥ 100 × hot path", pass: naiveInsert >= 100 * hot.median)

// MARK: The writer and the year store

log("building the year store (\(yearVisits) visits)...")
let yearPath = directory.appendingPathComponent("year.sqlite").path
let year = try Store(path: yearPath)
let firstDay = Day("2026-01-01") ?? Day(ordinal: 20454)
let writerNanos = try buildYearStore(year, visits: yearVisits, days: storeDays, screens: screensCount)
let visitsPerSecond = Double(yearVisits) / (Double(writerNanos) / 1e9)
let bytesPerVisit = Double(try year.sizeInBytes()) / Double(yearVisits)
report("writer_visits_per_s", visitsPerSecond, "visits/s", target: "≥ 200000", pass: visitsPerSecond >= 200_000)
report("bytes_per_visit", bytesPerVisit, "bytes", target: "≤ 80", pass: bytesPerVisit <= 80)

// MARK: Exporting the year store (each format in a child process: its peak memory alone)

try exportFigures(store: yearPath, scratch: directory)

// MARK: Opening the year store and recovering an interrupted session

log("open and recover...")
let lastDay = firstDay.adding(days: Int32(storeDays - 1))
let manual = ManualClock()
let wall = ManualWallClock(
  clock: manual,
  wall: WallInstant(nanosecondsSince1970: Int64(lastDay.ordinal) * 86_400_000_000_000 + 43_200_000_000_000),
  timeZone: TimeZone(identifier: "UTC") ?? .current)
var rules = (0..<20).map { Rule("rule-\($0)", when: .screenTime("Screen\($0)", .hours(100 + $0))) }
rules[0] = Rule("streak", when: .streak(400))
do {
  let crashing = try Engine(
    store: Store(path: yearPath), configuration: .init(rules: rules), clock: manual, wallClock: wall, scheduler: manual)
  crashing.record(.active)
  crashing.record(.appear(screen: "Screen1", id: ScreenInstance("s")))
  manual.advance(by: .seconds(5))  // journaled, not folded
  crashing.abandon()
}
let openStart = now()
let engine = try Engine(
  store: Store(path: yearPath), configuration: .init(rules: rules), clock: manual, wallClock: wall, scheduler: manual)
let openMillis = Double(now() - openStart) / 1e6
report("open_recover_ms", openMillis, "ms", target: "≤ 20", pass: openMillis <= 20)
engine.record(.active)
engine.record(.appear(screen: "Screen7", id: ScreenInstance("q")))
manual.advance(by: .seconds(30))

// MARK: Queries on the year store, from memory

log("queries...")
let total = measure(samples: 2000, batch: 100) { _ = engine.time(.screen("Screen7")) }.median
let today = measure(samples: 2000, batch: 100) { _ = engine.time(.app, in: .today) }.median
let series = measure(samples: 500, batch: 10) { _ = engine.series(.screen("Screen7"), lastDays: 30) }.median
let streak = measure(samples: 500, batch: 10) { _ = engine.longestStreak() }.median
let progress = measure(samples: 500, batch: 10) { _ = engine.progress() }.median
report("query_total_ns", total, target: "≤ 1000", pass: total <= 1000)
report("query_today_ns", today, target: "≤ 1000", pass: today <= 1000)
report("query_series_30d_ns", series, target: "≤ 100000", pass: series <= 100_000)
report("query_streak_ns", streak, target: "≤ 100000", pass: streak <= 100_000)
report("rules_progress_20_ns", progress, target: "≤ 20000", pass: progress <= 20_000)
engine.terminate()

// The same queries on an engine with its own queue, as in an app: they read the state the
// queue published, with the screen's appearance still waiting in the buffer.
let systemClock = SystemMonotonicClock()
let queued = try Engine(
  inMemory: .init(rules: rules), clock: systemClock, wallClock: SystemWallClock(),
  scheduler: DispatchScheduler(clock: systemClock))
queued.record(.active)
queued.record(.appear(screen: "Screen7", id: ScreenInstance("q")))
let queuedTotal = measure(samples: 2000, batch: 100) { _ = queued.time(.screen("Screen7")) }.median
let queuedToday = measure(samples: 2000, batch: 100) { _ = queued.time(.app, in: .today) }.median
report("query_total_queue_ns", queuedTotal, target: "≤ 1000", pass: queuedTotal <= 1000)
report("query_today_queue_ns", queuedToday, target: "≤ 1000", pass: queuedToday <= 1000)
queued.terminate()

// MARK: Lua

try luaFigures(quick: quick, pack: packPath, scratch: directory)

// MARK: Replay

log("replay...")
let trace = TraceGenerator(days: quick ? 30 : 365, seed: 7).events()
let replayStart = now()
_ = try Replayer(storePath: directory.appendingPathComponent("replay.sqlite").path).run(trace)
let eventsPerSecond = Double(trace.count) / (Double(now() - replayStart) / 1e9)
report("replay_events_per_s", eventsPerSecond, "events/s")

let peak = peakMiB()
report("peak_rss_mb", peak, "MiB", target: "≤ 64", pass: peak <= 64)

// MARK: Simulation (`dwell balance`), after the peak above: it has its own memory figure

try simulationFigures(quick: quick, packs: packsPath, scratch: directory)

// MARK: Output

printResults()
