// A small terminal app with a few "screens", embedding Dwell through its public API: the
// Tracker (engine + SQLite store), a Lua rule pack with a plugin, unlock events and
// notifications, daily goals and rule progress. It proves on Linux that embedding works.
//
//   swift run dwell-example-host                  # interactive: type a screen name, or 'quit'
//   swift run dwell-example-host --simulate       # a scripted session on a manual clock
import Dwell
import DwellLua
import DwellTesting
import Foundation

let screens = ["Home", "Lessons", "Quiz"]
let arguments = CommandLine.arguments.dropFirst()
let simulate = arguments.contains("--simulate")
let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let rulesPath = arguments.first { !$0.hasPrefix("--") } ?? here.appendingPathComponent("rules").path

// The rules folder: loaded when the tracker starts, reloaded whenever a file changes.
let rules = LuaRuleFolder(URL(fileURLWithPath: rulesPath))
do {
  _ = try rules.load()
} catch {
  FileHandle.standardError.write(Data("example-host: the rules do not load: \(error)\n".utf8))
  exit(1)
}

var configuration = Tracker.Configuration()
configuration.rulesDirectory = rules
// A daily goal: a rule earned again each day, its progress today's.
configuration.rules = [Rule("lessons-goal", when: .screenTime("Lessons", .minutes(10)), every: .day)]
let storeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("dwell-example-\(getpid())")
try? FileManager.default.createDirectory(at: storeDirectory, withIntermediateDirectories: true)
configuration.storeLocation = .file(storeDirectory.appendingPathComponent("usage.sqlite").path)
defer { try? FileManager.default.removeItem(at: storeDirectory) }

func printUnlocks(_ tracker: Tracker) {
  for (rule, progress) in tracker.progress() {
    print(
      "  \(progress.isUnlocked ? "✓" : "·") \(rule.title ?? rule.id): \(progress.isUnlocked ? "unlocked" : progress.summary)"
    )
  }
}

if simulate {
  // A scripted session: the same public API, on a manual clock.
  let sim = TrackerSimulation(configuration: configuration)
  let tracker = sim.tracker
  tracker.setHostValue("subscriber", true)
  tracker.onUnlock { print("★ unlocked \($0.rule)") }
  tracker.onNotification { print("✉ \($0.title)") }
  sim.use("Home", for: .seconds(30))
  sim.use("Lessons", for: .minutes(12))
  sim.use("Quiz", for: .minutes(2))
  sim.nextDay()
  sim.use("Lessons", for: .minutes(3))
  print("Lessons today: \(tracker.progress(of: "lessons-goal")?.summary ?? "")")
  print(
    "Lessons all time: \(Int(tracker.time(.screen("Lessons")).seconds / 60)) min in \(tracker.visits("Lessons")) visits"
  )
  print("Streak: \(tracker.currentStreak()) days, points: \(tracker.points)")
  printUnlocks(tracker)
  tracker.terminate()
  exit(0)
}

let tracker = Tracker(configuration: configuration)
tracker.setHostValue("subscriber", true)
tracker.onUnlock { print("\n★ unlocked \($0.rule)") }
tracker.onNotification { print("\n✉ \($0.title)") }
await tracker.ready()
tracker.record(.active)
var current: ScreenInstance?
print("Screens: \(screens.joined(separator: ", ")). Type a screen name to open it, 'status', or 'quit'.")
while let line = readLine()?.trimmingCharacters(in: .whitespaces) {
  if line == "quit" { break }
  if line == "status" {
    print(
      "Today in the app: \(Int(tracker.time(.app, in: .today).seconds)) s; Lessons goal: \(tracker.progress(of: "lessons-goal")?.summary ?? "")"
    )
    printUnlocks(tracker)
    continue
  }
  guard let screen = screens.first(where: { $0.lowercased() == line.lowercased() }) else {
    print("Unknown screen '\(line)'.")
    continue
  }
  let next = ScreenInstance(UUID().uuidString)
  tracker.record(.appear(screen: screen, id: next))
  if let current { tracker.record(.disappear(id: current)) }
  current = next
  print("Now on \(screen).")
}
tracker.terminate()
