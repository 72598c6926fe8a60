// The read-only usage table scripted checks receive, made once and refreshed in place.
internal import CLuaSandbox
internal import Dwell

/// The read-only `u` table scripted checks receive: made once per state, its figures
/// refreshed in place when they change, so a tick allocates nothing in Lua.
enum UsageTable {
  /// Registry references to the proxy handed to scripts and the tables it reads.
  struct References {
    var proxy: Int32
    var root: Int32
    var app: Int32
    /// The figures as last set, to set only those that changed (most ticks: the seconds).
    var shown: Figures?
  }

  /// The figures the table shows, compared bit for bit (so -0.0 is not 0.0).
  struct Figures: Equatable {
    var appSeconds: UInt64
    var sessions: Int
    var activeDays: Int
    var longestStreak: Int
    var currentStreak: Int
    var todaySeconds: UInt64
    var hour: Int
    /// A recurring rule's check only: the current period's app seconds and sessions.
    var periodSeconds: UInt64?
    var periodSessions: Int?

    init(_ usage: UsageFigures) {
      appSeconds = usage.appSeconds.bitPattern
      sessions = usage.sessions
      activeDays = usage.activeDays
      longestStreak = usage.longestStreak
      currentStreak = usage.currentStreak
      todaySeconds = usage.todaySeconds.bitPattern
      hour = usage.hour
      periodSeconds = usage.periodAppSeconds?.bitPattern
      periodSessions = usage.periodSessions
    }
  }

  static func make(in state: LuaState) -> References {
    let L = state.L
    lua_createtable(L, 0, 8)
    lua_pushvalue(L, -1)
    let root = state.reference()
    lua_createtable(L, 0, 6)
    lua_pushvalue(L, -1)
    let app = state.reference()
    readOnly(L, tracked: true)
    lua_setfield(L, -2, "app")
    lua_createtable(L, 0, 4)  // the screens' tables by name
    lua_pushinteger(L, 0)  // how many
    dwell_lua_pushhost(L, screen, 2)
    lua_setfield(L, -2, "screen")
    dwell_lua_pushhost(L, action, 0)
    lua_setfield(L, -2, "action")
    readOnly(L, tracked: true)
    return References(proxy: state.reference(), root: root, app: app)
  }

  /// Sets the figures that changed since the last refresh; the date and weekday only on a
  /// `newDay`.
  static func refresh(_ references: inout References, with usage: UsageFigures, in state: LuaState, newDay: Bool) {
    let L = state.L
    let now = Figures(usage)
    let old = references.shown
    references.shown = now
    state.pushReference(references.app)
    if old?.appSeconds != now.appSeconds { state.setField("seconds", number: usage.appSeconds) }
    if old?.sessions != now.sessions { state.setField("sessions", integer: usage.sessions) }
    if old?.activeDays != now.activeDays { state.setField("active_days", integer: usage.activeDays) }
    if old?.longestStreak != now.longestStreak { state.setField("longest_streak", integer: usage.longestStreak) }
    if old?.currentStreak != now.currentStreak { state.setField("current_streak", integer: usage.currentStreak) }
    if old?.todaySeconds != now.todaySeconds { state.setField("today_seconds", number: usage.todaySeconds) }
    if old?.periodSeconds != now.periodSeconds {
      if let seconds = usage.periodAppSeconds { lua_pushnumber(L, seconds) } else { lua_pushnil(L) }
      lua_setfield(L, -2, "period_seconds")
    }
    if old?.periodSessions != now.periodSessions {
      if let sessions = now.periodSessions { lua_pushinteger(L, lua_Integer(sessions)) } else { lua_pushnil(L) }
      lua_setfield(L, -2, "period_sessions")
    }
    dwell_lua_pop(L, 1)
    state.pushReference(references.root)
    if newDay {
      state.setField("date", string: usage.today.description)
      state.setField("weekday", integer: usage.today.weekday)
    }
    if old?.hour != now.hour { state.setField("hour", integer: usage.hour) }
    if old?.todaySeconds != now.todaySeconds { state.setField("today_seconds", number: usage.todaySeconds) }
    dwell_lua_pop(L, 1)
  }

  /// Replaces the table on top of the stack by a read-only proxy of it (or the function on
  /// top, of the proxy and a key, by a read-only proxy whose reads it answers).
  /// `tracked`: reads go through ``trackedRead``, which marks a read of a figure that
  /// changes with time.
  private static func readOnly(_ L: OpaquePointer, tracked: Bool = false) {
    lua_createtable(L, 0, 0)  // proxy
    lua_createtable(L, 0, 3)  // metatable
    lua_pushvalue(L, -3)
    if tracked { dwell_lua_pushhost(L, trackedRead, 1) }
    lua_setfield(L, -2, "__index")
    dwell_lua_pushhost(L, refuseWrite, 0)
    lua_setfield(L, -2, "__newindex")
    lua_pushboolean(L, 0)
    lua_setfield(L, -2, "__metatable")
    _ = lua_setmetatable(L, -2)
    dwell_lua_remove(L, -2)
  }

  /// The fields of `u` and `u.app` that change only on events (and at midnight, when the
  /// engine runs every check): every other figure grows with time, or may change an
  /// instant after an event (a day counts as active once time accrued on it).
  private static func isSteady(_ key: UnsafeRawBufferPointer) -> Bool {
    key.named("sessions") || key.named("period_sessions") || key.named("date") || key.named("weekday")
      || key.named("app") || key.named("screen")
  }

  /// `__index` of `u` and `u.app`: the field, read raw from the table behind (upvalue 1);
  /// a figure that changes with time marks the running check as one that does.
  private static let trackedRead: dwell_lua_host_function = { L in
    guard let L else { return 0 }
    lua_settop(L, 2)
    if let state = LuaState.owner(L), !state.readsTime {
      var length = 0
      if lua_type(L, 2) != LUA_TSTRING {
        state.readsTime = true
      } else if let key = lua_tolstring(L, 2, &length), !isSteady(UnsafeRawBufferPointer(start: key, count: length)) {
        state.readsTime = true
      }
    }
    _ = lua_rawget(L, dwell_lua_upvalueindex(2))
    return 1
  }

  /// `touch()`, for the prelude: the running check read what the host may change at any time.
  static let touch: dwell_lua_host_function = { L in
    LuaState.owner(L)?.readsTime = true
    return 0
  }

  private static let refuseWrite: dwell_lua_host_function = { L in
    guard let state = LuaState.owner(L) else { return 0 }
    return state.raise("\(state.whereCalled()) usage figures are read-only")
  }

  /// The most screens' tables kept: past it, `u.screen` makes a table each call, so a
  /// script asking for endless names cannot fill the pack's memory for good.
  static let keptScreens = 64

  /// The most bytes of a screen's or an action's name a script may ask for: every read of
  /// the table's figures decodes the name, work no instruction counts (a name of megabytes
  /// was milliseconds a read). Names the host records are far shorter.
  static let nameLength = 1024

  /// Raises, at the script's line, for a name longer than ``nameLength`` (nil: it is not).
  private static func refuseLongName(_ L: OpaquePointer, _ what: String) -> Int32? {
    guard lua_rawlen(L, 1) > nameLength else { return nil }
    guard let state = LuaState.owner(L) else { return 0 }
    return state.raise(
      "\(state.whereCalled()) u.\(what): a name of \(lua_rawlen(L, 1)) bytes is longer than the \(nameLength) "
        + "bytes a name may have (sandbox)")
  }

  /// `u.screen(name)`: one read-only table per screen name, made at its first call and
  /// returned again after, whose fields read the figures of the moment (a table kept
  /// across calls never shows old figures).
  private static let screen: dwell_lua_host_function = { L in
    guard let L else { return 0 }
    guard lua_type(L, 1) == LUA_TSTRING else {
      guard let state = LuaState.owner(L) else { return 0 }
      return state.raise("\(state.whereCalled()) u.screen needs a screen name, as in u.screen(\"Lessons\")")
    }
    if let refused = refuseLongName(L, "screen") { return refused }
    let tables = dwell_lua_upvalueindex(2)
    lua_settop(L, 1)
    lua_pushvalue(L, 1)
    if lua_rawget(L, tables) == LUA_TTABLE { return 1 }
    dwell_lua_pop(L, 1)
    lua_pushvalue(L, 1)  // the name
    lua_pushinteger(L, -1)  // the screen's place among those seen, once found
    dwell_lua_pushhost(L, screenField, 2)
    readOnly(L)  // empty: every read goes to screenField
    let kept = lua_tointegerx(L, dwell_lua_upvalueindex(3), nil)
    if kept < keptScreens {
      lua_pushinteger(L, kept + 1)
      lua_copy(L, -1, dwell_lua_upvalueindex(3))
      dwell_lua_pop(L, 1)
      lua_pushvalue(L, 1)
      lua_pushvalue(L, -2)
      lua_rawset(L, tables)
    }
    return 1
  }

  /// `u.action(name)`: a read-only table whose `count` and `today_count` read the named
  /// action's figures of the moment (zeros for one never recorded).
  private static let action: dwell_lua_host_function = { L in
    guard let L, let state = LuaState.owner(L) else { return 0 }
    guard lua_type(L, 1) == LUA_TSTRING else {
      return state.raise("\(state.whereCalled()) u.action needs an action's name, as in u.action(\"quiz_done\")")
    }
    if let refused = refuseLongName(L, "action") { return refused }
    lua_settop(L, 1)
    dwell_lua_pushhost(L, actionField, 1)
    readOnly(L)  // empty: every read goes to actionField
    return 1
  }

  /// Reads `count`, `today_count` or (in a recurring rule's check) `period_count` of an
  /// action's table (nil for another key, or outside a call).
  private static let actionField: dwell_lua_host_function = { L in
    guard let (_, usage, field, bytes) = fieldRead(L) else { return 0 }
    let name = String(decoding: bytes, as: UTF8.self)
    let figures = usage.pointee.action(name)
    if field.named("count") {
      lua_pushinteger(L, lua_Integer(figures.count))
    } else if field.named("today_count") {
      lua_pushinteger(L, lua_Integer(figures.todayCount))
    } else if field.named("period_count") {
      guard let count = usage.pointee.actionPeriodCount(name) else { return 0 }
      lua_pushinteger(L, lua_Integer(count))
    } else {
      return 0
    }
    return 1
  }

  /// Reads `seconds`, `visits`, `today_seconds` or (in a recurring rule's check)
  /// `period_seconds` and `period_visits` of a screen's table (nil for another key, or
  /// outside a call).
  private static let screenField: dwell_lua_host_function = { L in
    guard let (state, usage, field, name) = fieldRead(L) else { return 0 }
    let known = Int32(truncatingIfNeeded: lua_tointegerx(L, dwell_lua_upvalueindex(3), nil))
    var place = known
    let figures = UsageFigures.screen(in: usage, named: name, place: &place)
    if place != known {
      lua_pushinteger(L, lua_Integer(place))
      lua_copy(L, -1, dwell_lua_upvalueindex(3))
      dwell_lua_pop(L, 1)
    }
    if !field.named("visits") && !field.named("period_visits") { state.readsTime = true }
    if field.named("seconds") {
      lua_pushnumber(L, figures.seconds)
    } else if field.named("visits") {
      lua_pushinteger(L, lua_Integer(figures.visits))
    } else if field.named("today_seconds") {
      lua_pushnumber(L, figures.todaySeconds)
    } else if field.named("period_seconds") || field.named("period_visits") {
      guard let period = usage.pointee.screenPeriod(String(decoding: name, as: UTF8.self)) else { return 0 }
      if field.named("period_visits") {
        lua_pushinteger(L, lua_Integer(period.visits))
      } else {
        lua_pushnumber(L, period.seconds)
      }
    } else {
      return 0
    }
    return 1
  }
  /// What a read of a figures table's key (`u.screen(name).seconds`, `u.action(name).count`)
  /// needs: the state, the figures of the call under way, the key's bytes, and the bytes of
  /// the name the table was made for (its upvalue 2, which the table keeps alive). `nil`
  /// outside a call or for a key that is no string.
  private static func fieldRead(
    _ L: OpaquePointer?
  ) -> (LuaState, UnsafePointer<UsageFigures>, UnsafeRawBufferPointer, UnsafeRawBufferPointer)? {
    guard let state = LuaState.owner(L), let usage = state.current, lua_type(L, 2) == LUA_TSTRING else { return nil }
    var keyLength = 0
    var nameLength = 0
    guard let key = lua_tolstring(L, 2, &keyLength),
      let name = lua_tolstring(L, dwell_lua_upvalueindex(2), &nameLength)
    else { return nil }
    let field = UnsafeRawBufferPointer(start: key, count: keyLength)
    return (state, usage, field, UnsafeRawBufferPointer(start: name, count: nameLength))
  }
}

extension UnsafeRawBufferPointer {
  /// Whether these bytes are `name`'s (a byte compare: no String is made for a field read).
  fileprivate func named(_ name: StaticString) -> Bool {
    count == name.utf8CodeUnitCount
      && elementsEqual(UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
  }
}
