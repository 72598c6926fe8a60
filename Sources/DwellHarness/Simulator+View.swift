internal import Dwell
internal import Foundation

/// The live view of `dwell sim`: header, rules and log, fitted to the terminal in display
/// columns (colour codes take none, wide characters two): a long line is wrapped by the
/// view itself, its continuation indented, so the terminal never wraps or cuts one.
extension Simulator {
  /// The whole screen, `height` lines at most, none wider than `width` columns.
  public func render(width: Int, height: Int, color: Bool) -> String {
    lock.withLock {
      let style = Style(color: color)
      let width = max(20, width)
      let height = max(1, height)
      // The header wraps too, within a third of the screen (a long path of screens is cut
      // there, its end ending in "…"; 'status' shows it whole).
      let headerRoom = max(3, height / 3)
      var lines = header(style).flatMap { TerminalText.wrap($0, width, indent: 2) }
      if lines.count > headerRoom {
        lines = lines.prefix(headerRoom - 1) + [TerminalText.fit(lines[headerRoom - 1] + " …", width)]
      }
      lines.append(style.dim(divider("Rules", width)))
      // A rule is one entry of one or more lines (its detail wraps); entries are kept whole.
      let rules = ruleLines(width: width, style: style).map { $0.split(separator: "\n").map(String.init) }
      let logRoom = max(3, (height - lines.count - 1) / 3)
      let ruleRoom = max(1, height - lines.count - 1 - logRoom)
      if rules.joined().count > ruleRoom {
        var shown = 0
        var used = 0
        while shown < rules.count, used + rules[shown].count <= ruleRoom - 1 {
          lines += rules[shown]
          used += rules[shown].count
          shown += 1
        }
        lines.append(style.dim(TerminalText.fit("… \(rules.count - shown) more (type 'rules')", width)))
      } else {
        lines += rules.joined()
      }
      lines.append(style.dim(divider("Log", width)))
      let room = max(1, height - lines.count)
      lines += logLines(width: width, room: room, style: style)
      return lines.prefix(height).joined(separator: "\n")
    }
  }

  /// The newest log entries that fit `room` lines, each wrapped whole (a command to copy,
  /// an error's file, line and fix).
  private func logLines(width: Int, room: Int, style: Style) -> [String] {
    var lines: [String] = []
    for entry in log.reversed() {
      let text = "\(entry.time) \(entry.text)"
      let wrapped = TerminalText.wrap(text, width, indent: 4)
      let painted = wrapped.map { line in
        switch entry.kind {
        case .unlock: return style.green(line)
        case .notification: return style.cyan(line)
        case .error: return style.red(line)
        case .event: return line
        case .info: return style.dim(line)
        }
      }
      if lines.count + painted.count > room {
        if lines.isEmpty { lines = Array(painted.prefix(room)) }
        break
      }
      lines = painted + lines
    }
    return lines
  }

  private func divider(_ title: String, _ width: Int) -> String {
    "── \(title) " + String(repeating: "─", count: max(0, width - title.count - 4))
  }
}
