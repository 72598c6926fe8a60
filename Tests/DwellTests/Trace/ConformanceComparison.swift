import Foundation

/// Compares a `dwell replay --json` report with a conformance case's expected report: every
/// figure equal (seconds within 1 ms), except after a crash while the app was active or
/// inactive, where rule 9 of the accounting contract allows a bounded loss.
struct ConformanceComparison {
  /// Seconds match within a millisecond (and a rounding margin).
  static let tolerance = 0.0011

  /// What the crashes in a trace allow: `crashes` crashes while running in the foreground,
  /// each losing at most `interval` seconds and the visits that began within it.
  struct CrashBudget {
    var crashes = 0
    var interval = 2.0
    var visits = 0
    /// By action name: the counts recorded within `interval` before a crash (which it may lose).
    var actions: [String: Int] = [:]
    var slack: Double { Double(crashes) * interval }
  }

  let expected: [String: Any]
  let budget: CrashBudget
  var differences: [String] = []

  /// Compares `got` (the replay's standard output) with `expected`.
  init(expected: [String: Any], got: [String: Any], budget: CrashBudget) {
    self.expected = expected
    self.budget = budget
    compare(got)
  }

  /// The crash budget of a trace replayed with `arguments` (for `--checkpoint-interval`).
  static func budget(trace: String, arguments: [String]) throws -> CrashBudget {
    var budget = CrashBudget()
    if let flag = arguments.firstIndex(of: "--checkpoint-interval"), flag + 1 < arguments.count,
      let interval = Double(arguments[flag + 1])
    {
      budget.interval = interval
    }
    var state = "dead"
    var appeared: [Double] = []
    var acted: [(t: Double, name: String, count: Int)] = []
    for line in trace.split(separator: "\n") where !line.allSatisfy(\.isWhitespace) {
      let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
      let name = event["event"] as? String ?? ""
      let t = (event["t"] as? NSNumber)?.doubleValue ?? 0
      switch name {
      case "appear": appeared.append(t)
      case "action":
        acted.append((t, event["name"] as? String ?? "", (event["count"] as? NSNumber)?.intValue ?? 1))
      case "crash":
        if state == "active" || state == "inactive" {
          budget.crashes += 1
          budget.visits += appeared.filter { t - $0 <= budget.interval + tolerance }.count
        }
        for action in acted where t - action.t <= budget.interval + tolerance {
          budget.actions[action.name, default: 0] += action.count
        }
        acted = []
        state = "dead"
      case "launch", "foreground": state = "inactive"
      case "active", "inactive": state = name
      case "background":
        state = name
        acted = []  // durable from here on
      case "terminate": state = "dead"
      default: break
      }
    }
    return budget
  }

  private mutating func compare(_ got: [String: Any]) {
    let crashes = budget.crashes
    let app = expected["app"] as? [String: Any] ?? [:]
    let gotApp = got["app"] as? [String: Any] ?? [:]
    seconds("app.seconds", app["seconds"], gotApp["seconds"])
    count("app.sessions", app["sessions"], gotApp["sessions"], below: crashes, above: crashes)
    count("app.activeDays", app["activeDays"], gotApp["activeDays"], below: crashes)
    count("app.longestStreak", app["longestStreak"], gotApp["longestStreak"], below: crashes)
    days("app", app["days"], gotApp["days"])

    let screens = expected["screens"] as? [String: [String: Any]] ?? [:]
    let gotScreens = got["screens"] as? [String: [String: Any]] ?? [:]
    for name in Set(screens.keys).union(gotScreens.keys).sorted() {
      guard let screen = screens[name] else {
        differences.append("screens[\(name)]: not expected")
        continue
      }
      guard let gotScreen = gotScreens[name] else {
        if crashes == 0 { differences.append("screens[\(name)]: missing") }
        continue
      }
      seconds("screens[\(name)].seconds", screen["seconds"], gotScreen["seconds"])
      count("screens[\(name)].visits", screen["visits"], gotScreen["visits"], below: budget.visits)
      days("screens[\(name)]", screen["days"], gotScreen["days"])
    }

    compareActions(got)
    guard let unlocks = expected["unlocks"] as? [String: Any] else { return }
    guard let gotUnlocks = got["unlocks"] as? [String: Any] else { return differences.append("unlocks: missing") }
    for rule in Set(unlocks.keys).union(gotUnlocks.keys).sorted() {
      let want = (unlocks[rule] as? NSNumber)?.doubleValue
      let have = (gotUnlocks[rule] as? NSNumber)?.doubleValue
      if crashes == 0 {
        guard let want, let have, abs(have - want) <= Self.tolerance else {
          differences.append("unlocks[\(rule)]: expected \(describe(want)), got \(describe(have))")
          continue
        }
      } else if let have, want.map({ have < $0 - Self.tolerance }) ?? true {
        differences.append("unlocks[\(rule)]: unlocked at \(have), earlier than possible (\(describe(want)))")
      }
    }
  }

  private func describe(_ instant: Double?) -> String { instant.map { "\($0)" } ?? "never" }

  private mutating func seconds(_ path: String, _ want: Any?, _ have: Any?) {
    let want = (want as? NSNumber)?.doubleValue ?? 0
    guard let have = have == nil ? 0 : (have as? NSNumber)?.doubleValue else {
      return differences.append("\(path): not a number: \(String(describing: have))")
    }
    if have > want + Self.tolerance || have < want - budget.slack - Self.tolerance {
      differences.append(
        "\(path): expected \(want)\(budget.slack > 0 ? " (minus up to \(budget.slack))" : ""), got \(have)")
    }
  }

  mutating func count(_ path: String, _ want: Any?, _ have: Any?, below: Int = 0, above: Int = 0) {
    let want = (want as? NSNumber)?.intValue ?? 0
    guard let number = have as? NSNumber, let have = Int(exactly: number.doubleValue) else {
      return differences.append("\(path): not an integer: \(String(describing: have))")
    }
    if have > want + above || have < want - below { differences.append("\(path): expected \(want), got \(have)") }
  }

  private mutating func days(_ path: String, _ want: Any?, _ have: Any?) {
    let want = want as? [String: Any] ?? [:]
    let have = have as? [String: Any] ?? [:]
    for day in Set(want.keys).union(have.keys).sorted() {
      seconds("\(path).days[\(day)]", want[day] ?? 0, have[day])
    }
  }
}
