// The 80-column terminal table of a balance report.
internal import Dwell
internal import Foundation

extension BalanceReport {
  /// The report as text at most 80 columns wide.
  package func table(personasPath: String? = nil) -> String {
    var out: [String] = []
    out.append(fit("dwell balance \(pack): \(Self.group(users)) users x \(days) days, seed \(seed)"))
    out.append(
      fit(
        "personas: "
          + personas.map { "\($0.name) \(Self.percent(Double($0.users) / Double(max(users, 1))))" }
          .joined(separator: ", ")))
    if let personasPath { out.append(fit("persona file: \(personasPath)")) }
    out.append("")
    let marks = checkpoints.map { "D\($0)" }
    out.append(
      Self.pad("RULE", 27) + marks.map { Self.lpad($0, 6) }.joined() + Self.lpad("DAY p10/50/90", 15)
        + Self.lpad("MIN p50/90", 12))
    for row in rules {
      let flag = row.never ? "!" : row.everyoneOnDayOne ? "*" : row.info.scripted ? "s" : " "
      let days = row.days.map { "\(Self.int($0.p10))/\(Self.int($0.p50))/\(Self.int($0.p90))" } ?? "-"
      let minutes = row.minutes.map { "\(Self.int($0.p50))/\(Self.int($0.p90))" } ?? "-"
      out.append(
        Self.pad(Self.clip(row.info.id, 25), 25) + flag + " "
          + row.shares.map { Self.lpad(Self.percent($0), 6) }.joined()
          + Self.lpad(days, 15) + Self.lpad(minutes, 12))
    }
    out.append("share of users with it by day N; DAY = day of the unlock (1 = install day),")
    out.append("MIN = active minutes before it, among those who unlocked.")
    let never = rules.filter(\.never).map(\.info.id)
    let dayOne = rules.filter(\.everyoneOnDayOne).map(\.info.id)
    if !never.isEmpty { out += wrap("! never unlocked by any simulated user: " + never.joined(separator: ", ")) }
    if !dayOne.isEmpty { out += wrap("* every user has it on day 1: " + dayOne.joined(separator: ", ")) }
    if rules.contains(where: { $0.info.scripted }) { out.append("s scripted check") }
    out += earningsTable(marks)
    out += progressTable(marks)
    out += sourcesTable()
    out.append("")
    out += personaTable()
    if !levels.isEmpty {
      out.append("")
      out.append(Self.pad("LEVEL", 27) + marks.map { Self.lpad($0, 6) }.joined())
      for (index, name) in levels.enumerated() {
        out.append(
          Self.pad(Self.clip(name, 26), 27)
            + checkpoints.map { Self.lpad(Self.percent(levelShares[$0 - 1][index]), 6) }.joined())
      }
      out += personaLevelsTable()
    }
    if !notifications.isEmpty {
      out.append("")
      out.append(Self.pad("NOTIFICATION", 50) + Self.lpad("POSTED", 10) + Self.lpad("USERS", 10))
      for note in notifications {
        out.append(
          Self.pad(Self.clip(note.key, 49), 50) + Self.lpad(Self.group(note.fired), 10)
            + Self.lpad(Self.percent(Double(note.users) / Double(max(users, 1))), 10))
      }
    }
    if scriptErrors > 0 {
      out.append("")
      out += wrap("script errors: \(Self.group(scriptErrors)); first: " + errorMessages.joined(separator: "; "))
    }
    return out.joined(separator: "\n") + "\n"
  }

  /// Points per user by source (rule or plugin), most first, with each one's share of all.
  private func sourcesTable() -> [String] {
    guard !pointsBySource.isEmpty else { return [] }
    let all = pointsBySource.reduce(0) { $0 + $1.perUser }
    var out = ["", Self.pad("POINTS BY SOURCE", 50) + Self.lpad("PER USER", 15) + Self.lpad("SHARE", 15)]
    for (source, perUser) in pointsBySource {
      out.append(
        Self.pad(Self.clip(source, 49), 50) + Self.lpad(Self.tenth(perUser), 15)
          + Self.lpad(Self.percent(all > 0 ? perUser / all : 0), 15))
    }
    return out
  }

  /// A figure to a tenth: `2.5`.
  static func tenth(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(abs(tenths % 10))"
  }

  private func personaTable() -> [String] {
    var out: [String] = []
    let last = checkpoints.last ?? days
    out.append(
      Self.pad("PERSONA", 16) + Self.lpad("USERS", 7) + Self.lpad("ACTIVE D\(last)", 11) + Self.lpad("MIN p50", 9)
        + Self.lpad("POINTS p50 " + checkpoints.map { "D\($0)" }.joined(separator: "/"), 37))
    for persona in personas {
      let active = persona.retention.last ?? 0
      out.append(
        Self.pad(Self.clip(persona.name, 15), 16) + Self.lpad(Self.group(persona.users), 7)
          + Self.lpad(Self.percent(active), 11) + Self.lpad(Self.int(persona.medianMinutes), 9)
          + Self.lpad(persona.medianPoints.map(String.init).joined(separator: "/"), 37))
    }
    // Each rule's share by the last day, by persona, when it fits.
    guard personas.count > 1, personas.count <= 6 else { return out }
    out.append("")
    let width = 9
    out.append(
      Self.pad("RULE by D\(last)", 80 - width * personas.count)
        + personas.map { Self.lpad(Self.clip($0.name, width - 1), width) }.joined())
    for row in rules {
      out.append(
        Self.pad(Self.clip(row.info.id, 79 - width * personas.count), 80 - width * personas.count)
          + row.personaShares.map { Self.lpad(Self.percent($0.last ?? 0), width) }.joined())
    }
    return out
  }

  func fit(_ line: String) -> String { Self.clip(line, 80) }

  /// `text` (escaped as ``clip(_:_:)`` does) in lines of at most 80 columns.
  func wrap(_ text: String) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in escapingControls(text).split(separator: " ") {
      if !line.isEmpty, line.count + 1 + word.count > 80 {
        lines.append(line)
        line = "  "
      }
      line += (line.isEmpty || line == "  " ? "" : " ") + word
    }
    if !line.trimmingCharacters(in: .whitespaces).isEmpty { lines.append(line) }
    return lines
  }

  static func percent(_ share: Double) -> String {
    let value = share * 100
    if value > 0, value < 1 { return "<1%" }
    if value < 100, value > 99 { return ">99%" }
    return "\(Int(value.rounded()))%"
  }

  static func int(_ value: Double) -> String { String(Int(value.rounded())) }

  static func group(_ value: Int) -> String {
    let digits = String(value)
    var out = ""
    for (i, c) in digits.reversed().enumerated() {
      if i > 0, i % 3 == 0, c != "-" { out.append(",") }
      out.append(c)
    }
    return String(out.reversed())
  }

  /// `text` as one plain line (a pack's ids and names, persona and screen names, paths:
  /// control characters escaped, see `escapingControls`) cut to `width` characters.
  static func clip(_ text: String, _ width: Int) -> String {
    let text = escapingControls(text)
    return text.count <= width ? text : String(text.prefix(max(width - 1, 0))) + "~"
  }

  static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }

  static func lpad(_ text: String, _ width: Int) -> String {
    text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
  }
}
