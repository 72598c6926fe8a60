internal import Dwell
internal import DwellLua
internal import DwellTesting
internal import Foundation

extension Simulator {
  /// ANSI styles, or nothing when colour is off.
  struct Style {
    let color: Bool
    func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ t: String) -> String { paint(t, "1") }
    func dim(_ t: String) -> String { paint(t, "2") }
    func green(_ t: String) -> String { paint(t, "32") }
    func yellow(_ t: String) -> String { paint(t, "33") }
    func red(_ t: String) -> String { paint(t, "31") }
    func cyan(_ t: String) -> String { paint(t, "36") }
  }

  // MARK: Text answers

  /// The `status` answer.
  func status() -> String {
    header(Style(color: false)).joined(separator: "\n")
  }

  /// The first lines of the view: clock, app, screens, totals.
  func header(_ style: Style) -> [String] {
    let now = localTime()
    var lines: [String] = []
    let zone = wall.timeZone.identifier
    lines.append(
      style.bold("Dwell sim") + " · \(now.date) \(now.weekday) \(now.time) \(zone) · app \(appStateText(style))"
        + " · t=\(Int(clock.now().seconds))s")
    let screens = visible.map { $0.isSheet ? "[\($0.name)]" : $0.name }
    let path = stack.isEmpty ? "none" : stack.map { $0.isSheet ? "[\($0.name)]" : $0.name }.joined(separator: " › ")
    lines.append("Screens: \(path)" + (screens.isEmpty ? "" : "   visible: \(screens.joined(separator: " + "))"))
    guard let report = report() else { return lines }
    let today = Day(now.date) ?? Day(ordinal: 0)
    let todayTime = report.app.days[today] ?? .zero
    let totals =
      "Today \(SimDuration.words(todayTime)) · all time \(SimDuration.words(report.app.time)) · "
      + "\(report.sessions) session\(report.sessions == 1 ? "" : "s") · \(report.activeDays) day\(report.activeDays == 1 ? "" : "s")"
      + " · best streak \(report.longestStreak)"
    lines.append(totals)
    let levels = source?.pack?.levels ?? []
    if report.points > 0 || !levels.isEmpty {
      var points = "Points \(report.points)"
      if let level = Level.summary(report.points, in: levels) { points += " · level \(level)" }
      lines.append(points)
    }
    let top = report.screens.sorted { $0.value.time > $1.value.time }.prefix(5)
    if !top.isEmpty {
      lines.append(
        "Screens today: "
          + top.map { name, figures in
            "\(name) \(SimDuration.words(figures.days[today] ?? .zero))/\(SimDuration.words(figures.time))"
          }.joined(separator: " · "))
    }
    return lines
  }

  private func appStateText(_ style: Style) -> String {
    switch appState {
    case .active: return style.green("active")
    case .notRunning: return style.red("not running")
    case .inactive: return style.yellow("inactive")
    case .background: return style.yellow("background")
    }
  }

  /// The `rules` answer: every rule with a bar and what remains.
  func rulesText() -> String {
    ruleLines(width: 100, style: Style(color: false)).joined(separator: "\n")
  }

  func ruleLines(width: Int, style: Style) -> [String] {
    let items = progress()
    guard !items.isEmpty else { return [style.dim("(no rules)")] }
    let nameWidth = min(28, max(8, items.map { $0.rule.id.count }.max() ?? 8))
    let barWidth = width >= 100 ? 20 : 12
    return items.map { rule, progress in
      let filled = Int((progress.fraction * Double(barWidth)).rounded(.down))
      let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
      let mark = progress.isUnlocked ? style.green("✓") : (rule.isHidden ? style.dim("?") : "·")
      let name = rule.id.count > nameWidth ? String(rule.id.prefix(nameWidth - 1)) + "…" : rule.id
      let padded = name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
      let detail = progress.isUnlocked ? "unlocked" : (rule.isHidden ? "hidden" : progress.summary)
      var line = "\(mark) \(padded) \(progress.isUnlocked ? style.green(bar) : bar) \(detail)"
      let visibleLength = 2 + nameWidth + 1 + barWidth + 1 + detail.count
      if visibleLength > width { line = String(line.prefix(line.count - (visibleLength - width) - 1)) + "…" }
      return line
    }
  }

  /// The `explain RULE` answer.
  func explain(_ id: String) -> String {
    guard let item = progress().first(where: { $0.rule.id == id }) else {
      let known = progress().map(\.rule.id)
      let close = known.filter { $0.hasPrefix(String(id.prefix(3))) }
      return "No rule '\(id)'." + (close.isEmpty ? "" : " Did you mean \(close.joined(separator: ", "))?")
    }
    let (rule, progress) = item
    var lines = ["\(rule.id)\(rule.title.map { " — \($0)" } ?? ""): unlocks after \(rule.condition)"]
    if let summary = rule.summary { lines.append("  \(summary)") }
    if progress.isUnlocked, let record = report()?.unlocks[id] {
      lines.append("  Unlocked at t=\(String(format: "%.3f", record.mono.seconds))s (\(record.wall.date))")
      return lines.joined(separator: "\n")
    }
    lines.append("  Not unlocked yet: \(progress.summary).")
    for part in progress.parts {
      lines.append(
        "  \(part.isUnlocked ? "✓" : "·") \(part.summary)\(part.remaining.isEmpty ? "" : " — \(part.remaining)")")
    }
    if !progress.remaining.isEmpty { lines.append("  Still needed: \(progress.remaining).") }
    if case .check = rule.condition {
      let errors = source?.pack?.diagnostics.filter { $0.rule == id } ?? []
      if let error = errors.last {
        lines.append("  The check failed and is disabled: \(error.message)")
      } else {
        lines.append("  A scripted check: it runs after every event and every second of app time.")
      }
    }
    return lines.joined(separator: "\n")
  }

  // MARK: The live view

  /// The whole screen, fitted to `width` x `height`.
  public func render(width: Int, height: Int, color: Bool) -> String {
    lock.withLock {
      let style = Style(color: color)
      let width = max(40, width)
      let height = max(12, height)
      var lines = header(style).map { fit($0, width) }
      lines.append(style.dim(rule("Rules", width)))
      let rules = ruleLines(width: width, style: style)
      let logRoom = max(3, (height - 1 - lines.count - 1) / 3)
      let ruleRoom = max(1, height - 1 - lines.count - 1 - logRoom)
      if rules.count > ruleRoom {
        lines += rules.prefix(ruleRoom - 1)
        lines.append(style.dim("… \(rules.count - ruleRoom + 1) more (type 'rules')"))
      } else {
        lines += rules
      }
      lines.append(style.dim(rule("Log", width)))
      let room = max(1, height - 1 - lines.count)
      for entry in log.suffix(room) {
        let text = fit("\(entry.time) \(entry.text)", width)
        switch entry.kind {
        case .unlock: lines.append(style.green(text))
        case .notification: lines.append(style.cyan(text))
        case .error: lines.append(style.red(text))
        case .event: lines.append(text)
        case .info: lines.append(style.dim(text))
        }
      }
      while lines.count < height - 1 { lines.append("") }
      return lines.joined(separator: "\n")
    }
  }

  private func fit(_ text: String, _ width: Int) -> String {
    text.count <= width ? text : String(text.prefix(width - 1)) + "…"
  }

  private func rule(_ title: String, _ width: Int) -> String {
    "── \(title) " + String(repeating: "─", count: max(0, width - title.count - 4))
  }

  /// Log lines added since `count` lines, for line mode.
  public func log(since count: Int) -> (lines: [String], count: Int) {
    lock.withLock {
      let fresh = log.suffix(max(0, log.count - count))
      return (fresh.map { "\($0.time)  \($0.text)" }, log.count)
    }
  }

  /// How many log lines there are.
  public var logCount: Int { lock.withLock { log.count } }
}
