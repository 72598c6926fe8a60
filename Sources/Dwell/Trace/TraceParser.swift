internal import Foundation

/// Parses and validates lifecycle traces (JSON Lines).
package enum TraceParser {
  /// Parses a whole trace, checking every rule of the format: `t` present, numeric and
  /// non-decreasing; known events; required fields; events only while the process runs.
  ///
  /// - Throws: ``TraceError`` for the first line that breaks the format.
  package static func parse(_ text: String) throws(TraceError) -> [TraceEvent] {
    var events: [TraceEvent] = []
    var running = false
    var last: Int64 = .min
    var lineNumber = 0
    for line in TextLines.lines(of: text) {
      lineNumber += 1
      if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
      let event = try parseLine(line, number: lineNumber, isFirst: events.isEmpty)
      if event.t.nanoseconds < last {
        throw TraceError(line: lineNumber, "t goes backwards (\(event.t.seconds) after \(Double(last) / 1e9))")
      }
      last = event.t.nanoseconds
      switch event.kind {
      case .launch:
        if running { throw TraceError(line: lineNumber, "launch while the process is already running") }
        running = true
      default:
        if !running {
          throw TraceError(
            line: lineNumber,
            "\(event.name) while the process is not running (before the first launch, or after terminate/crash)")
        }
        if event.kind == .terminate || event.kind == .crash { running = false }
      }
      events.append(event)
    }
    return events
  }

  /// Parses one line (no process-state checks).
  package static func parseLine(_ line: some StringProtocol, number: Int, isFirst: Bool) throws(TraceError)
    -> TraceEvent
  {
    let value: JSONValue
    do {
      value = try JSONParser.parse(line)
    } catch {
      throw TraceError(line: number, "not valid JSON (\(error.message))")
    }
    guard case .object = value else {
      throw TraceError(line: number, "not a JSON object (found \(value.typeName))")
    }
    guard let tValue = value["t"] else { throw TraceError(line: number, "'t' is missing") }
    guard case .number(let seconds, _) = tValue else {
      throw TraceError(line: number, "'t' must be a number, not \(tValue.typeName)")
    }
    // Nanoseconds in 64 bits, with room to add intervals: about 95 years of uptime.
    guard seconds >= 0, seconds <= 3e9 else {
      throw TraceError(line: number, "'t' is out of range (\(seconds)); it must be from 0 to 3,000,000,000 seconds")
    }
    let t = MonotonicInstant(nanoseconds: Int64((seconds * 1e6).rounded()) * 1000)
    guard let eventValue = value["event"] else { throw TraceError(line: number, "'event' is missing") }
    guard case .string(let name) = eventValue else {
      throw TraceError(line: number, "'event' must be a string, not \(eventValue.typeName)")
    }
    func string(_ key: String, required: Bool) throws(TraceError) -> String? {
      guard let field = value[key] else {
        if required { throw TraceError(line: number, "\(name) needs '\(key)'") }
        return nil
      }
      guard case .string(let s) = field else {
        throw TraceError(line: number, "'\(key)' must be a string, not \(field.typeName)")
      }
      return s
    }
    func clockFields() throws(TraceError) -> (WallInstant?, TimeZone?) {
      var wall: WallInstant?
      var zone: TimeZone?
      if let text = try string("wall", required: false) {
        guard let parsed = ISO8601.parse(text) else {
          throw TraceError(
            line: number,
            "'wall' is not an ISO 8601 instant with Z or an offset, between the years 1900 and 2200: \(text)")
        }
        wall = parsed
      }
      if let text = try string("tz", required: false) {
        guard let parsed = TimeZone(identifier: text), !text.isEmpty else {
          throw TraceError(line: number, "'tz' is not a known IANA time zone: \(text)")
        }
        zone = parsed
      }
      return (wall, zone)
    }
    let kind: TraceEvent.Kind
    switch name {
    case "launch":
      let (wall, zone) = try clockFields()
      if isFirst && (wall == nil || zone == nil) {
        throw TraceError(line: number, "the first launch needs 'wall' and 'tz'")
      }
      kind = .launch(wall: wall, timeZone: zone)
    case "clock":
      let (wall, zone) = try clockFields()
      if wall == nil && zone == nil { throw TraceError(line: number, "clock needs 'wall' or 'tz'") }
      kind = .clock(wall: wall, timeZone: zone)
    case "appear":
      guard let screen = try string("screen", required: true), !screen.isEmpty else {
        throw TraceError(line: number, "'screen' must not be empty")
      }
      guard let id = try string("id", required: true) else { throw TraceError(line: number, "appear needs 'id'") }
      kind = .appear(screen: screen, id: id)
    case "disappear":
      guard let id = try string("id", required: true) else { throw TraceError(line: number, "disappear needs 'id'") }
      kind = .disappear(id: id)
    case "action":
      guard let actionName = try string("name", required: true), !actionName.isEmpty else {
        throw TraceError(line: number, "an action's 'name' must not be empty")
      }
      var count = 1
      if let field = value["count"] {
        guard case .number(let n, _) = field, n == n.rounded(), (1...Double(1_000_000)).contains(n) else {
          throw TraceError(
            line: number,
            "an action's 'count' must be a whole number from 1 to 1,000,000, not \(field.typeName == "number" ? JSONWriter.render(field, pretty: false) : field.typeName)"
          )
        }
        count = Int(n)
      }
      kind = .action(name: actionName, count: count)
    case "active": kind = .active
    case "inactive": kind = .inactive
    case "background": kind = .background
    case "foreground": kind = .foreground
    case "terminate": kind = .terminate
    case "crash": kind = .crash
    case "interact": kind = .interact
    default: throw TraceError(line: number, "unknown event '\(name)'")
    }
    return TraceEvent(line: number, t: t, kind: kind)
  }
}
