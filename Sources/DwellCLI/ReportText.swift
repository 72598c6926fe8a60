internal import Dwell
internal import DwellTesting
internal import Foundation

/// The terminal report: totals, a table of screens, a daily bar chart, actions and
/// earnings (ReportText+Actions.swift), rules.
enum ReportText {
  /// Width and colour for the output.
  struct Style {
    var width: Int
    var color: Bool

    /// The terminal's width and colour when stdout is a TTY (never with NO_COLOR); 80
    /// columns, plain text otherwise.
    static var terminal: Style {
      guard Terminal.isTTY else { return plain }
      return Style(width: max(60, min(Terminal.size().width, 160)), color: Terminal.wantsColor)
    }

    static let plain = Style(width: 80, color: false)

    func bold(_ text: String) -> String { color ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    func dim(_ text: String) -> String { color ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    func green(_ text: String) -> String { color ? "\u{1B}[32m\(text)\u{1B}[0m" : text }
  }

  static func duration(_ d: Duration) -> String {
    let total = Int(d.seconds.rounded())
    if total < 60 { return "\(total)s" }
    if total < 3600 { return "\(total / 60)m \(String(format: "%02d", total % 60))s" }
    // To the nearest minute, as the HTML report shows it (3h 19m 40s is 3h 20m in both).
    let minutes = (total + 30) / 60
    return "\(minutes / 60)h \(String(format: "%02d", minutes % 60))m"
  }

  static func render(
    _ report: UsageReport, rules: [Rule], levels: [Level] = [], unlockTime: UsageReport.UnlockTime, days: Int = 14,
    screen: String? = nil, style: Style = .plain, progress: [String: RuleProgress] = [:]
  ) -> String {
    var lines: [String] = []
    let subject = screen.flatMap { report.screens[$0] } ?? report.app
    // Screen names and ids come from a store or a pack: shown escaped, as one plain line.
    let screen = screen.map { escapingControls($0) }
    let last = report.app.days.keys.max()
    if let last {
      let week = (0..<7).reduce(Duration.zero) { $0 + (subject.days[last.adding(days: -Int32($1))] ?? .zero) }
      let label = screen.map { name in name.count > 24 ? String(name.prefix(23)) + "…" : name } ?? "App"
      lines.append(
        style.bold("\(label) today") + " \(duration(subject.days[last] ?? .zero)) · last 7 days \(duration(week)) · "
          + "all time \(duration(subject.time))")
      lines.append(style.dim("Today is \(last), the last day with time in the store."))
    } else {
      lines.append(style.bold("App time: ") + "none yet")
    }
    lines.append(
      "\(plural(report.sessions, "session")) · \(plural(report.activeDays, "active day")) · current streak \(currentStreak(report, last)) · longest \(report.longestStreak)"
    )
    if report.points > 0 || !levels.isEmpty {
      var text = "Points \(report.points)"
      if let level = Level.summary(report.points, in: levels) { text += " · level \(level)" }
      lines.append(text)
    }
    lines.append("")
    lines += screenTable(report, style: style)
    if let last, days > 0 {
      lines.append("")
      lines += barChart(subject.days, last: last, days: days, style: style, title: screen ?? "App")
    }
    for part in [
      actionLines(report, last: last, days: days, style: style),
      earningLines(report, unlockTime: unlockTime, style: style),
    ]
    where !part.isEmpty {
      lines.append("")
      lines += part
    }
    if !rules.isEmpty || !report.unlocks.isEmpty {
      lines.append("")
      lines.append(style.bold("Rules"))
      let ids = rules.isEmpty ? report.unlocks.keys.sorted() : rules.map(\.id)
      let idWidth = min(28, ids.map(\.count).max() ?? 0)
      func padded(_ raw: String) -> String {
        let id = escapingControls(raw)
        return id.count >= idWidth ? id : id.padding(toLength: idWidth, withPad: " ", startingAt: 0)
      }
      for id in ids {
        if let record = report.unlocks[id] {
          let when =
            unlockTime == .monotonicSeconds
            ? "t=\(String(format: "%.3f", record.mono.seconds))" : "\(record.wall.date)"
          lines.append("  " + style.green("✓") + " \(padded(id))  unlocked at \(when)")
        } else {
          if let progress = progress[id], progress.isUnlocked {
            lines.append("  " + style.green("✓") + " \(padded(id))  reached (these rules never ran on this store)")
          } else if let progress = progress[id] {
            let width = 16
            let filled = Int((progress.fraction * Double(width)).rounded(.down))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            let text = "  · \(padded(id))  \(bar) \(escapingControls(progress.summary))"
            lines.append(text.count > style.width ? String(text.prefix(style.width - 1)) + "…" : text)
          } else {
            lines.append("  · \(padded(id))  locked")
          }
        }
      }
    }
    return lines.joined(separator: "\n")
  }

  static func plural(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

  static func currentStreak(_ report: UsageReport, _ last: Day?) -> Int {
    guard let last else { return 0 }
    var run = 0
    while (report.app.days[last.adding(days: -Int32(run))] ?? .zero) > .zero { run += 1 }
    return run
  }

  static func screenTable(_ report: UsageReport, style: Style) -> [String] {
    let screens = report.screens.sorted { ($0.value.time, $1.key) > ($1.value.time, $0.key) }
      .map { (key: escapingControls($0.key), value: $0.value) }
    guard !screens.isEmpty else { return ["No screens yet."] }
    let nameWidth = max(6, min(style.width - 44, screens.map(\.key.count).max() ?? 6))
    var lines = [
      style.bold(
        "Screen".padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "        Time  Visits   Average   Share")
    ]
    for (name, figures) in screens.prefix(40) {
      let share = report.app.time > .zero ? figures.time.seconds / report.app.time.seconds * 100 : 0
      let average = figures.visits > 0 ? figures.time / figures.visits : .zero
      let label = name.count > nameWidth ? String(name.prefix(nameWidth - 1)) + "…" : name
      lines.append(
        label.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + duration(figures.time).leftPad(12)
          + String(figures.visits).leftPad(8) + duration(average).leftPad(10) + String(format: "%7.1f%%", share))
    }
    if screens.count > 40 { lines.append(style.dim("… and \(screens.count - 40) more screens")) }
    return lines
  }

  static func barChart(_ days: [Day: Duration], last: Day, days count: Int, style: Style, title: String) -> [String] {
    let range = (0..<count).reversed().map { last.adding(days: -Int32($0)) }
    let longest = range.map { days[$0] ?? .zero }.max() ?? .zero
    let barWidth = max(10, style.width - 26)
    var lines = [style.bold("\(title), last \(count) days")]
    for day in range {
      let time = days[day] ?? .zero
      let length = longest > .zero ? Int((time.seconds / longest.seconds * Double(barWidth)).rounded()) : 0
      let bar = String(repeating: "█", count: length)
      lines.append("\(day) \(duration(time).leftPad(8)) \(style.green(bar))")
    }
    return lines
  }
}

extension ReportText {
  /// The progress of `configuration`'s rules over what a store holds, computed on a copy
  /// so the store itself is never written.
  static func progress(store path: String, configuration: Engine.Configuration) -> [String: RuleProgress] {
    guard !configuration.rules.isEmpty else { return [:] }
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent("dwell-progress-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: copy) }
    do {
      try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
      let file = copy.appendingPathComponent("usage.sqlite").path
      try FileManager.default.copyItem(atPath: path, toPath: file)
      for suffix in ["-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
        try FileManager.default.copyItem(atPath: path + suffix, toPath: file + suffix)
      }
      var configuration = configuration
      configuration.listeners = []
      let clock = ManualClock()
      let engine = try Engine(
        store: Store(path: file), configuration: configuration, clock: clock, wallClock: ManualWallClock(clock: clock),
        scheduler: clock)
      defer { engine.abandon() }
      var result: [String: RuleProgress] = [:]
      for item in engine.progress() { result[item.rule.id] = item.progress }
      return result
    } catch {
      return [:]
    }
  }
}
