internal import Dwell
internal import DwellLua
internal import DwellTesting
internal import Foundation

/// What the simulator answers: the status header, the rules with their progress, and
/// `explain`, all fitted to a width in display columns.
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

  /// The `status` answer.
  func status() -> String {
    header(Style(color: false)).flatMap { TerminalText.wrap($0, answerWidth, indent: 2) }.joined(separator: "\n")
  }

  /// The first lines of the view: clock, app, screens, totals.
  func header(_ style: Style) -> [String] {
    let now = localTime()
    var lines: [String] = []
    let zone = TimeZoneName.display(wall.timeZone)
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
    if let actions = actionsLine(report, today: today) { lines.append(actions) }
    let levels = source?.pack?.levels ?? []
    if report.points > 0 || !levels.isEmpty {
      var points = "Points \(report.points)"
      if let level = Level.summary(report.points, in: levels) { points += " · level \(level)" }
      lines.append(points)
    }
    let top = report.screens.sorted { ($0.value.time, $1.key) > ($1.value.time, $0.key) }.prefix(5)
    if !top.isEmpty {
      lines.append(
        "Screens today/all: "
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

  /// The report now (live, or from the store when the app is not running).
  func report() -> UsageReport? {
    if let engine { return engine.report() }
    return try? UsageReport(store: Store(path: storePath, readOnly: true))
  }

  /// The rules' progress now.
  func progress() -> [(rule: Rule, progress: RuleProgress)] {
    engine?.progress() ?? []
  }

  /// The `rules` answer: every rule with a bar and what remains.
  func rulesText(width: Int) -> String {
    ruleLines(width: width, style: Style(color: false)).joined(separator: "\n")
  }

  /// Why the sandbox turned each disabled check off (its error or the limit it hit), by
  /// rule: a check is disabled for good once it fails, and every failure names its rule.
  func disabledChecks() -> [String: String] {
    let failures = source?.pack?.diagnostics ?? []
    return Dictionary(failures.compactMap { f in f.rule.map { ($0, f.message) } }) { _, last in last }
  }

  /// Why the sandbox turned each disabled plugin off, by plugin, in the pack's order: every
  /// failure that disables a plugin names it first ("plugin 'streaks': ...", "plugin
  /// 'streaks' used ... instructions").
  func disabledPlugins() -> [(plugin: String, reason: String)] {
    guard let pack = source?.pack else { return [] }
    let failures = pack.diagnostics.filter { $0.rule == nil }
    return pack.plugins.compactMap { plugin in
      let named = "plugin '\(plugin)'"
      return failures.last { $0.message.hasPrefix(named) }.map { (plugin, $0.message) }
    }
  }

  /// One entry a rule, each line at most `width` columns: a mark, the id, a bar, what
  /// remains, wrapped under itself when long (the entry's lines joined by "\n"); a disabled
  /// check is marked ✗ with why, and so is a disabled plugin, after the rules.
  func ruleLines(width: Int, style: Style) -> [String] {
    let items = progress()
    let plugins = disabledPlugins()
    guard !items.isEmpty || !plugins.isEmpty else { return [style.dim("(no rules)")] }
    let disabled = disabledChecks()
    let earnings = report()?.earnings ?? []
    let longest = (items.map(\.rule.id) + plugins.map(\.plugin)).map { TerminalText.width($0) }.max() ?? 8
    let nameWidth = min(max(8, width / 3), 28, max(8, longest))
    let barWidth = width >= 100 ? 20 : width >= 70 ? 12 : 6
    return items.map { rule, progress in
      let filled = Int((progress.fraction * Double(barWidth)).rounded(.down))
      let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
      let reason = progress.isUnlocked ? nil : disabled[rule.id]
      let mark =
        progress.isUnlocked
        ? style.green("✓") : reason != nil ? style.red("✗") : (rule.isHidden ? style.dim("?") : "·")
      let name = TerminalText.fit(rule.id, nameWidth)
      let padded = name + String(repeating: " ", count: max(0, nameWidth - TerminalText.width(name)))
      // A recurring rule's progress is this period's; what it earned so far follows.
      let earned = Self.earnedWords(rule, earnings)
      let done = rule.every.map { "earned " + Self.current($0) } ?? "unlocked"
      let detail =
        progress.isUnlocked
        ? done + earned
        : reason.map { "disabled: \($0)" } ?? (rule.isHidden ? "hidden" : progress.summary + earned)
      let room = max(1, width - (2 + nameWidth + 1 + barWidth + 1))
      let shown = Self.hang(detail, room: room, column: width - room) { reason == nil ? $0 : style.red($0) }
      return "\(mark) \(padded) \(progress.isUnlocked ? style.green(bar) : bar) \(shown)"
    }
      + plugins.map { plugin, reason in
        let name = TerminalText.fit(escapingControls(plugin), nameWidth)
        let padded = name + String(repeating: " ", count: max(0, nameWidth - TerminalText.width(name)))
        let label = "plugin" + String(repeating: " ", count: max(0, barWidth - 6))
        let room = max(1, width - (2 + nameWidth + 1 + max(barWidth, 6) + 1))
        let shown = Self.hang("disabled: \(escapingControls(reason))", room: room, column: width - room, style.red)
        return "\(style.red("✗")) \(padded) \(style.dim(label)) \(shown)"
      }
  }

  /// `text` wrapped to `room` columns, each line painted, the lines after the first
  /// starting at `column` (under the first), joined by "\n".
  static func hang(_ text: String, room: Int, column: Int, _ paint: (String) -> String) -> String {
    let margin = String(repeating: " ", count: max(0, column))
    return TerminalText.wrap(text, room, indent: 0).enumerated()
      .map { $0.offset == 0 ? paint($0.element) : margin + paint($0.element) }.joined(separator: "\n")
  }

  func explainCommand(_ args: [String]) throws(CommandError) -> String {
    guard args.count == 1, let id = args.first else {
      throw CommandError("explain takes a rule id: explain bonus-level")
    }
    return explain(id)
  }

  /// The `explain RULE` answer; instants in the simulation's local time.
  func explain(_ id: String) -> String {
    guard let item = progress().first(where: { $0.rule.id == id }) else {
      let known = progress().map(\.rule.id)
      let close =
        Spelling.closest(to: id, in: known).map { [$0] } ?? known.filter { $0.hasPrefix(String(id.prefix(3))) }
      return "No rule '\(id)'." + (close.isEmpty ? "" : " Did you mean \(close.joined(separator: ", "))?")
    }
    let (rule, progress) = item
    var lines = ["\(rule.id)\(rule.title.map { " — \($0)" } ?? ""): \(rule.meaning)"]
    if let summary = rule.summary { lines.append("  \(summary)") }
    if progress.isUnlocked, let record = report()?.unlocks[id] {
      let at = local(record.wall)
      lines.append("  Unlocked at \(at.date) \(at.weekday) \(at.time) \(TimeZoneName.display(wall.timeZone))")
      lines.append("  (t=\(String(format: "%.3f", record.mono.seconds))s of the simulation)")
      if let earlier = earlierVersion(of: rule) { lines += TerminalText.wrap(earlier, answerWidth, indent: 4) }
      return lines.joined(separator: "\n")
    }
    if let every = rule.every {
      let periods = (report()?.earnings ?? []).filter { $0.rule == id }.compactMap(\.period)
      lines.append(
        "  Earned \(periods.count == 1 ? "once" : "\(periods.count) times")"
          + (periods.isEmpty ? "" : ", for " + periods.suffix(10).joined(separator: ", ")))
      lines.append("  \(progress.isUnlocked ? "Earned" : "Not earned") \(Self.current(every)): \(progress.summary).")
    } else {
      lines.append("  Not unlocked yet: \(progress.summary).")
    }
    for part in progress.parts {
      lines.append(
        "  \(part.isUnlocked ? "✓" : "·") \(part.summary)\(part.remaining.isEmpty ? "" : " — \(part.remaining)")")
    }
    if !progress.remaining.isEmpty { lines.append("  Still needed: \(progress.remaining).") }
    if rule.condition.containsCheck {
      if let reason = disabledChecks()[id] {
        lines.append("  The check is disabled (the sandbox turned it off): \(reason)")
      } else {
        lines.append("  A scripted check: it runs after every event and every second of app time.")
      }
    }
    return lines.flatMap { TerminalText.wrap($0, answerWidth, indent: 4) }.joined(separator: "\n")
  }
}
