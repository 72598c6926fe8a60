internal import Dwell
internal import Foundation

/// The live view of `dwell sim`: header, rules and log, fitted to the terminal in display
/// columns (colour codes take none, wide characters two) so no line ever wraps.
extension Simulator {
  /// The whole screen, `height` lines at most, none wider than `width` columns.
  public func render(width: Int, height: Int, color: Bool) -> String {
    lock.withLock {
      let style = Style(color: color)
      let width = max(20, width)
      let height = max(1, height)
      var lines = header(style).map { TerminalText.fit($0, width) }
      lines.append(style.dim(divider("Rules", width)))
      let rules = ruleLines(width: width, style: style)
      let logRoom = max(3, (height - lines.count - 1) / 3)
      let ruleRoom = max(1, height - lines.count - 1 - logRoom)
      if rules.count > ruleRoom {
        lines += rules.prefix(ruleRoom - 1)
        lines.append(style.dim(TerminalText.fit("… \(rules.count - ruleRoom + 1) more (type 'rules')", width)))
      } else {
        lines += rules
      }
      lines.append(style.dim(divider("Log", width)))
      let room = max(1, height - lines.count)
      lines += logLines(width: width, room: room, style: style)
      return lines.prefix(height).joined(separator: "\n")
    }
  }

  /// The newest log entries that fit `room` lines; errors wrap so the file, line and fix
  /// stay readable, other lines are cut.
  private func logLines(width: Int, room: Int, style: Style) -> [String] {
    var lines: [String] = []
    for entry in log.reversed() {
      let text = "\(entry.time) \(entry.text)"
      let wrapped = entry.kind == .error ? TerminalText.wrap(text, width, indent: 4) : [TerminalText.fit(text, width)]
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
