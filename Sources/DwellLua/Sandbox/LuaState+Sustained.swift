// The sustained budget of a pack as the host sees it: draining it, and the problem it reports.
internal import CLuaSandbox
internal import Dwell

extension LuaState {
  /// Why the sustained budget stopped the pack, not yet reported.
  enum SustainedStop {
    /// It used more than its share of a core over the window, and waited a window in all.
    case share
    /// It took more than the tools' total of host time.
    case total
  }

  /// Drains the sustained budget by the app time up to `instant` (see sustained.c); a stop
  /// not yet reported.
  func sustain(_ instant: MonotonicInstant) -> SustainedStop? {
    dwell_lua_sustain(c, instant.nanoseconds)
    guard c.pointee.stopped != 0, c.pointee.stop_reported == 0 else { return nil }
    return c.pointee.stopped == 2 ? .total : .share
  }

  /// After a stop for the share: the heaviest check or plugin is disabled, the others run
  /// again with the budget afresh (a stop for the total stays: the run is over).
  func resumeAfterSustainedStop() {
    c.pointee.stopped = 0
    c.pointee.throttled = 0
    c.pointee.level_ns = 0
    c.pointee.throttled_ns = 0
  }

  /// The problem of `stop`: `heaviest` ("file:line: rule 'id'") is disabled (for the share),
  /// or the whole pack (for the total, or when no check or plugin did any counted work).
  func sustainedProblem(_ stop: SustainedStop, heaviest: String?) -> ScriptError {
    let limit: String
    switch stop {
    case .total:
      let seconds = Double(c.pointee.total_limit_ns) / 1e9
      limit = "took more than the \(Self.decimal(seconds)) s of host time the tools allow a pack for a run"
    case .share:
      let percent = Double(c.pointee.sustained_ppm) / 10_000
      let window = c.pointee.sustained_window_ns / 1_000_000_000
      limit =
        "used more than \(Self.decimal(percent)) % of a core over \(window) s of app use (sustained budget) "
        + "and waited \(window) s in all"
    }
    c.pointee.stop_reported = stop == .total || heaviest == nil ? 1 : 0
    guard let heaviest, stop == .share else {
      let who = heaviest.map { " (\($0) did the most work)" } ?? ""
      return ScriptError("the pack's scripts \(limit)\(who): its checks and plugins are disabled (sandbox)")
    }
    return ScriptError("\(heaviest) is disabled: the pack's scripts \(limit), and it did the most work (sandbox)")
  }

  /// `x` with at most two decimals, as a person writes it (1, 0.5, 0.25).
  private static func decimal(_ x: Double) -> String {
    let rounded = (min(max(x, 0), 1e12) * 100).rounded() / 100
    return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
  }
}
