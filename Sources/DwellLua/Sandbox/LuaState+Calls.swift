// Calling into a sandboxed state: the tick's budget, protected calls under the limits, loading files.
internal import CLuaSandbox
internal import Dwell

extension LuaState {
  /// Starts the tick of `instant` (one second of the clock): the pack's budget per tick
  /// is spent afresh from there.
  @discardableResult
  func enterTick(_ instant: MonotonicInstant) -> Bool {
    dwell_lua_enter_tick(c, instant.nanoseconds / 1_000_000_000) != 0
  }

  /// Whether the pack spent its budget for the current tick.
  var tickSpent: Bool { dwell_lua_tick_spent(c) != 0 }

  /// ``protectedCall(arguments:results:)`` with `usage` readable through `u.screen(name)`
  /// for the length of the call, and not a moment longer.
  func protectedCall(arguments: Int32, results: Int32, usage: UsageFigures) throws(ScriptError) {
    try withUnsafePointer(to: usage) { pointer throws(ScriptError) in
      current = pointer
      defer { current = nil }
      try protectedCall(arguments: arguments, results: results)
    }
  }

  /// Calls the function below `arguments` values on the stack as script code, under the
  /// budget, the time backstop and the memory cap. Results are left on the stack only
  /// when it succeeds; a call stopped by a limit fails even if the script caught the error.
  ///
  /// This runs for every check on every tick: the accounting is C arithmetic
  /// (`dwell_lua_call`), and text is built only when the call fails.
  func protectedCall(arguments: Int32, results: Int32) throws(ScriptError) {
    let status = dwell_lua_call(L, c, arguments, results)
    let exhausted = c.pointee.exhausted
    if exhausted != 0, status == dwell_lua_ok() { dwell_lua_pop(L, results) }
    guard status != dwell_lua_ok() || exhausted != 0 else { return }
    let message = status == dwell_lua_ok() ? "" : describe(-1, atMost: 4 * limits.messageLength + 4)
    var error = ScriptError(ScriptNames.explain(message))
    if status != dwell_lua_ok() { dwell_lua_pop(L, 1) }
    if status == dwell_lua_errmem() || (c.pointee.refused != 0 && exhausted == 0) {
      error.message = "\(whereRefused) memory limit exceeded (\(c.pointee.limit / 1024) KiB)"
    } else if exhausted != 0, !error.message.contains("exceeded (") {
      error.message = budgetMessage
    }
    if exhausted != 0 { error.message += throttleNote }
    error.message = clip(error.message.trimmingPrefix(" "), limits.messageLength)
    error.packBudget = exhausted != 0 && c.pointee.per_tick != 0
    throw error
  }

  /// Whether the running call is past its time limit, for host work a script asked for
  /// that runs long between two of the count hook's looks at the clock (parsing a list of
  /// thousands of tiers): the host stops its work and raises the time limit's error. A
  /// script that catches it is stopped for good at the hook's next look at the clock.
  func pastDeadline() -> Bool {
    let deadline = c.pointee.deadline
    guard deadline != 0, dwell_lua_monotonic_ns() > deadline else { return false }
    c.pointee.host_work = 0  // not charged on return: the call stops with the host's message
    return true
  }

  /// The time limit's message for the running call, without a place.
  var timeLimitMessage: String { "time limit exceeded (\(c.pointee.time_limit) ms)" }

  /// Charges `work` done by the host on a script's behalf (a rule's definition) to the
  /// running call: once the budget is spent, the script stops at its next instructions.
  func charge(_ work: Int64) {
    c.pointee.budget -= work
  }

  /// The count hook's message for the last call's allowance, without a place (its text is
  /// the C side's, `dwell_lua_push_budget_message`).
  private var budgetMessage: String {
    let enforce = c.pointee.enforce
    c.pointee.enforce = 0  // outside any protected call: the message's allocation may not fail
    defer { c.pointee.enforce = enforce }
    dwell_lua_push_budget_message(L, c, "")
    defer { dwell_lua_pop(L, 1) }
    return describe(-1)
  }

  /// `file:line:` where memory was refused during the last call, or "".
  private var whereRefused: String {
    withUnsafeBytes(of: &c.pointee.where) { raw in String(cString: raw.bindMemory(to: CChar.self).baseAddress!) }
  }

  /// Loads a chunk of Lua text into an environment of its own and runs it. The file name
  /// of `name` appears in error messages (`name.lua:line:`); Lua would cut a long path short.
  func run(_ text: String, name: String) throws(ScriptError) {
    let chunk = "@" + (name.split(separator: "/").last.map(String.init) ?? name)
    loading = true
    defer { loading = false }
    c.pointee.refused = 0
    c.pointee.enforce = 1
    let (status, line) = load(text, chunk: chunk)
    c.pointee.enforce = 0
    guard status == dwell_lua_ok() else {
      var message =
        status == dwell_lua_errmem()
        ? "memory limit exceeded (\(c.pointee.limit / 1024) KiB)" : describe(-1, atMost: 4 * limits.messageLength + 4)
      dwell_lua_pop(L, 1)
      if message == "C stack overflow" { message = Self.nestedTooDeeply }
      // Lua places its syntax errors; the two above it raises without a place are placed at
      // the line it was reading.
      if ScriptError.place(of: message) == nil { message = "\(chunk.dropFirst()):\(line): \(message)" }
      throw ScriptError(clip(message, limits.messageLength))
    }
    pushReference(newEnvironmentRef)
    do {
      try protectedCall(arguments: 0, results: 1)
    } catch {
      dwell_lua_pop(L, 1)
      throw error
    }
    _ = lua_setupvalue(L, -2, 1)  // the chunk's _ENV
    try protectedCall(arguments: 0, results: 0)
  }

  /// Lua 5.4's parser says "C stack overflow", without a place, when code nests deeper than
  /// it can read (a few hundred brackets, tables, functions, blocks or '..' in a row).
  static let nestedTooDeeply =
    "the code here is nested too deeply for Lua to read (at most about 200 brackets, tables, functions or "
    + "blocks inside one another); build it in steps, with local variables"

  /// Loads `text` (all its bytes: a NUL does not end it) as the chunk `chunk`; the status,
  /// and the line the parser was reading when it stopped.
  func load(_ text: String, chunk: String) -> (status: Int32, line: Int) {
    var text = text
    var line: Int32 = 0
    let status = text.withUTF8 { bytes in
      bytes.withMemoryRebound(to: CChar.self) { dwell_lua_loadtext(L, c, $0.baseAddress, $0.count, chunk, &line) }
    }
    return (status, Int(line))
  }

  /// `file:line:` where the function in the registry at `ref` starts, or "".
  func placeOfFunction(_ ref: Int32) -> String {
    guard lua_checkstack(L, 1) != 0 else { return "" }
    pushReference(ref)
    var info = lua_Debug()
    guard lua_getinfo(L, ">S", &info) != 0, info.linedefined > 0 else { return "" }  // pops the function
    return "\(Self.source(of: &info)):\(info.linedefined):"
  }

  /// `file:line:` of the script code nearest the running host function, skipping the
  /// prelude's frames and C functions ("" when there is none).
  func whereCalled(level: Int32 = 1) -> String {
    var info = lua_Debug()
    var level = level
    while lua_getstack(L, level, &info) != 0 {
      level += 1
      guard lua_getinfo(L, "Sl", &info) != 0, info.currentline > 0 else { continue }
      let source = Self.source(of: &info)
      if source == "dwell" { continue }
      return "\(source):\(info.currentline):"
    }
    return ""
  }

  /// The file name Lua keeps for the function `info` describes (`short_src`).
  private static func source(of info: inout lua_Debug) -> String {
    withUnsafeBytes(of: &info.short_src) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
  }
}
