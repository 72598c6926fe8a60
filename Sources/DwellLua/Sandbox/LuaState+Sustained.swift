// The sustained budget of a pack as the host sees it: draining it, and the problem it reports.
internal import CLuaSandbox
internal import Dwell

extension LuaState {
  /// Drains the sustained budget by the app time up to `instant` (see sustained.c): whether
  /// the pack stayed throttled a whole window, not yet reported.
  func sustain(_ instant: MonotonicInstant) -> Bool {
    dwell_lua_sustain(c, instant.nanoseconds)
    return c.pointee.stopped != 0 && c.pointee.stop_reported == 0
  }

  /// After a stop: the heaviest check or plugin is disabled, the others run again with the
  /// budget afresh.
  func resumeAfterSustainedStop() {
    c.pointee.stopped = 0
    dwell_lua_unthrottle(c)
    c.pointee.level_ns = 0
    c.pointee.throttled_ns = 0
  }

  /// Whether calls count their thread's processor time (an app), or the coarse monotonic
  /// clock's (the tools, which bound a run's total and call packs many times a simulated
  /// second: that clock costs no system call).
  var countsProcessorTime: Bool { c.pointee.total_limit_ns == 0 }

  /// The clock's reading, to charge the host work that follows to the pack
  /// (``chargeHostWork(since:work:)``).
  func hostWorkStart() -> Int64 { countsProcessorTime ? dwell_lua_thread_cpu_ns() : dwell_lua_monotonic_ns() }

  /// Charges to the sustained budget host work done for the pack outside its calls, such as
  /// saving its plugins' states: the time since `start` (``hostWorkStart()``), and at least
  /// `work` units.
  func chargeHostWork(since start: Int64, work: Int64) {
    let spent = (countsProcessorTime ? dwell_lua_thread_cpu_ns() : dwell_lua_monotonic_ns()) - start
    if spent > 0 || work > 0 { dwell_lua_spend(c, max(work, 0), max(spent, 0)) }
  }

  /// The pack's budget per tick now: ``ScriptLimits/instructionsPerTick``, or its sustained
  /// share of a second while throttled.
  var tickWork: Int64 { c.pointee.per_tick_work }

  /// What a problem found while the pack is throttled adds, or "".
  var throttleNote: String {
    guard c.pointee.throttled != 0 else { return "" }
    if c.pointee.over_total != 0 {
      let seconds = Double(c.pointee.total_limit_ns) / 1e9
      return "; throttled: the pack took more than the \(Self.decimal(seconds)) s of host time the tools allow "
        + "a pack for a run"
    }
    return "; throttled: \(sustainedLimit)"
  }

  private var sustainedLimit: String {
    let percent = Double(c.pointee.sustained_ppm) / 10_000
    let window = c.pointee.sustained_window_ns / 1_000_000_000
    return "the pack used more than \(Self.decimal(percent)) % of a core over \(window) s of app use (sustained budget)"
  }

  /// The problem of a pack throttled a whole window: `heaviest` ("file:line: rule 'id'") is
  /// disabled, or, when no check or plugin did any counted work, the whole pack.
  func sustainedProblem(heaviest: String?) -> ScriptError {
    let window = c.pointee.sustained_window_ns / 1_000_000_000
    let limit = "\(sustainedLimit) and stayed throttled \(window) s"
    guard let heaviest else {
      c.pointee.stop_reported = 1
      return ScriptError("\(limit): its checks and plugins are disabled (sandbox)")
    }
    return ScriptError("\(heaviest) is disabled: \(limit), and it did the most work (sandbox)")
  }

  /// `x` with at most two decimals, as a person writes it (1, 0.5, 0.25).
  private static func decimal(_ x: Double) -> String {
    let rounded = (min(max(x, 0), 1e12) * 100).rounded() / 100
    return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
  }
}
