internal import DwellTesting
internal import Foundation

/// The fuzzer's random traces: where they start (near a DST change, at New Year, in a zone
/// with an odd offset), and each next command, picked for the app's state as the
/// simulator has it (a closed app is launched, a backgrounded one comes back or waits long).
extension Fuzzer {
  /// Starts near the days clocks change (Europe and the US in spring and autumn, Australia
  /// in April and October), at a year's end, and on an ordinary Monday.
  static let starts = [
    "2026-03-28 22:30", "2026-03-29 00:30", "2026-10-24 23:00", "2026-10-25 01:30", "2026-03-07 23:00",
    "2026-11-01 00:45", "2026-04-04 23:30", "2026-10-03 22:00", "2026-12-31 23:15", "2026-05-04 09:00",
    "2026-02-28 21:00", "2026-06-30 23:50",
  ]

  /// Zones with DST (north and south), without, ahead of and behind UTC, and with
  /// half- and quarter-hour offsets.
  static let zones = [
    "UTC", "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Tokyo", "Asia/Kolkata",
    "Pacific/Chatham", "America/Los_Angeles", "Pacific/Kiritimati", "America/St_Johns",
  ]

  /// Generates and runs one trace, each command picked for the state the last left.
  func generate(_ random: inout SeededGenerator) throws(Simulator.CommandError) -> Outcome {
    let start = Self.starts[pick(Self.starts.count, &random)]
    let zone = Self.zones[pick(Self.zones.count, &random)]
    var generator = random
    let count = 1 + pick(options.steps, &generator)
    let outcome = try simulate(Script(start: start, zone: zone, steps: [])) { sim, ran in
      for _ in 0..<count {
        let step = next(sim, &generator)
        if (try? sim.perform(step)) != nil { ran.append(step) }
      }
    }
    random = generator
    return outcome
  }

  /// The next command for `sim` as it is now.
  private func next(_ sim: Simulator, _ random: inout SeededGenerator) -> String {
    let (state, depth) = sim.lock.withLock { (sim.appState, sim.stack.count) }
    let roll = pick(100, &random)
    switch state {
    case .notRunning:
      if roll < 55 { return "launch" }
      if roll < 75 { return "next day" + (roll % 2 == 0 ? "" : " \(clock(pick(24 * 60, &random)))") }
      if roll < 90 { return "skip \(1 + pick(roll < 85 ? 3 : 40, &random)) days" }
      return "wait \(duration(60 + pick(4 * 86400, &random)))"
    case .inactive:
      if roll < 60 { return "active" }
      if roll < 75 { return "wait \(duration(1 + pick(600, &random)))" }
      if roll < 85 { return "background" }
      return roll < 93 ? "crash" : "quit"
    case .background:
      if roll < 45 { return "foreground" }
      if roll < 75 { return "wait \(duration(60 + pick(roll < 65 ? 7200 : 4 * 86400, &random)))" }
      if roll < 85 { return "crash" }
      if roll < 92 { return "quit" }
      return travel(&random)
    case .active:
      return activeStep(roll, depth: depth, &random)
    }
  }

  /// A command with the app in use: screens, waits, touches, leaving, clock and zone changes.
  private func activeStep(_ roll: Int, depth: Int, _ random: inout SeededGenerator) -> String {
    let screen = screens[pick(screens.count, &random)]
    let named = screen.contains(" ") ? "\"\(screen)\"" : screen
    switch roll {
    case ..<20: return "open \(named)"
    case ..<26: return "tab \(named)"
    case ..<29: return "sheet \(named)"
    case ..<35: return depth > 0 ? "back" : "open \(named)"
    case ..<38: return "touch"
    case ..<58: return "wait \(duration(1 + pick(600, &random)))"
    case ..<66: return "wait \(duration(600 + pick(1200, &random)))"
    case ..<69: return "inactive"
    case ..<75: return "background"
    case ..<78: return "crash"
    case ..<80: return "quit"
    case ..<84: return "next day" + (roll % 2 == 0 ? "" : " \(clock(pick(24 * 60, &random)))")
    case ..<92: return travel(&random)
    default: return jump(&random)
    }
  }

  /// Travel to another zone.
  private func travel(_ random: inout SeededGenerator) -> String {
    "tz \(Self.zones[pick(Self.zones.count, &random)])"
  }

  /// The user moves the wall clock: forward or back by up to two days, or sets a date
  /// within a month of the start.
  private func jump(_ random: inout SeededGenerator) -> String {
    let roll = pick(10, &random)
    if roll < 8 { return "clock \(roll < 4 ? "+" : "-")\(duration(60 + pick(2 * 86400, &random)))" }
    let day = 1 + pick(28, &random)
    return "clock set 2026-\(roll == 8 ? "03" : "10")-\(day < 10 ? "0" : "")\(day) \(clock(pick(24 * 60, &random)))"
  }

  /// `seconds` as the simulator reads it, in its largest whole unit: 2h, 45m, 90s.
  static func words(seconds: Int) -> String {
    if seconds > 0 && seconds % 86400 == 0 { return "\(seconds / 86400)d" }
    if seconds > 0 && seconds % 3600 == 0 { return "\(seconds / 3600)h" }
    if seconds > 0 && seconds % 60 == 0 { return "\(seconds / 60)m" }
    return "\(seconds)s"
  }

  private func duration(_ seconds: Int) -> String { Self.words(seconds: seconds) }

  /// A time of day from minutes after midnight: 07:05.
  private func clock(_ minutes: Int) -> String {
    let hour = (minutes / 60) % 24
    let minute = minutes % 60
    return "\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)"
  }

  /// A whole number from 0 to `bound - 1` (0 when `bound` is not positive), the same on
  /// every platform for a seed.
  func pick(_ bound: Int, _ random: inout SeededGenerator) -> Int {
    guard bound > 1 else { return 0 }
    return Int(random.next() % UInt64(bound))
  }
}
