package import Foundation

/// One line of a lifecycle trace (<doc:Accounting>, "Trace format").
package struct TraceEvent: Sendable {
  /// What happened.
  package enum Kind: Sendable, Equatable {
    case launch(wall: WallInstant?, timeZone: TimeZone?)
    case active, inactive, background, foreground, terminate, crash, interact
    case appear(screen: String, id: String)
    case disappear(id: String)
    case clock(wall: WallInstant?, timeZone: TimeZone?)
    case action(name: String, count: Int)
  }

  /// The 1-based line number in the trace file.
  package var line: Int
  /// The instant on the trace's timeline.
  package var t: MonotonicInstant
  /// What happened.
  package var kind: Kind

  /// Creates an event.
  package init(line: Int, t: MonotonicInstant, kind: Kind) {
    self.line = line
    self.t = t
    self.kind = kind
  }

  /// The engine event for this trace event; `nil` for launch and crash, which start and
  /// stop engines rather than feed them.
  package var lifecycleEvent: LifecycleEvent? {
    switch kind {
    case .launch, .crash: return nil
    case .active: return .active
    case .inactive: return .inactive
    case .background: return .background
    case .foreground: return .foreground
    case .terminate: return .terminate
    case .interact: return .interact
    case .appear(let screen, let id): return .appear(screen: screen, id: ScreenInstance(id))
    case .disappear(let id): return .disappear(id: ScreenInstance(id))
    case .clock(let wall, let zone): return .clockChanged(wall: wall, timeZone: zone)
    case .action(let name, let count): return .action(name, count: count)
    }
  }

  /// The trace's name for the event.
  package var name: String {
    switch kind {
    case .launch: return "launch"
    case .active: return "active"
    case .inactive: return "inactive"
    case .background: return "background"
    case .foreground: return "foreground"
    case .terminate: return "terminate"
    case .crash: return "crash"
    case .interact: return "interact"
    case .appear: return "appear"
    case .disappear: return "disappear"
    case .clock: return "clock"
    case .action: return "action"
    }
  }

  /// The event as one JSON line of the trace format.
  package var jsonLine: String {
    var fields: [(key: String, value: JSONValue)] = [
      ("t", .seconds(t.nanoseconds)), ("event", .string(name)),
    ]
    switch kind {
    case .launch(let wall, let zone), .clock(let wall, let zone):
      if let wall { fields.append(("wall", .string(ISO8601.format(wall)))) }
      if let zone { fields.append(("tz", .string(zone.identifier))) }
    case .appear(let screen, let id):
      fields.append(("screen", .string(screen)))
      fields.append(("id", .string(id)))
    case .disappear(let id): fields.append(("id", .string(id)))
    case .action(let name, let count):
      fields.append(("name", .string(name)))
      if count != 1 { fields.append(("count", .number(Double(count), literal: String(count)))) }
    default: break
    }
    var text = "{"
    for (i, field) in fields.enumerated() {
      text += (i > 0 ? "," : "") + JSONWriter.quote(field.key) + ":" + JSONWriter.render(field.value, pretty: false)
    }
    return text + "}"
  }
}
