/*
 * Calls between the host and script code: a new state, the trampoline through which Lua
 * calls Swift host functions, the message handler that places errors in the designer's
 * file, the protected call under the pack's limits, and the per-tick budget.
 */
#include "sandbox.h"

lua_State *dwell_lua_newstate(dwell_lua_limits *limits) {
  lua_State *L = lua_newstate(dwell_lua_alloc, limits);
  if (L) {
    /* Index 1 for good: every call's message handler (see dwell_lua_pcall). */
    lua_pushcfunction(L, dwell_lua_locate);
    lua_pushnil(L); /* index 2: the function of the current call, for errors (see dwell_lua_pcall) */
    limits->L = L;
    limits->step = DWELL_LUA_HOOK_STEP;
    limits->base_step = DWELL_LUA_HOOK_STEP;
    lua_sethook(L, dwell_lua_count_hook, LUA_MASKCOUNT, DWELL_LUA_HOOK_STEP);
  }
  return L;
}

static int dwell_lua_trampoline(lua_State *L) {
  dwell_lua_host_function fn = (dwell_lua_host_function)lua_touserdata(L, lua_upvalueindex(1));
  dwell_lua_limits *limits = dwell_lua_limits_of(L);
  /* Host code runs no script code (it reads tables raw and calls no metamethods), so it may
   * allocate freely; what it leaves behind counts against the cap as soon as it returns. */
  int enforce = limits->enforce;
  long long outer_work = limits->host_work;
  limits->enforce = 0;
  limits->host_work = 0;
  int results = fn(L);
  long long work = limits->host_work;
  limits->host_work = outer_work;
  if (enforce && results != DWELL_LUA_RAISE && limits->used > limits->limit) {
    lua_gc(L, LUA_GCCOLLECT, 0);
    dwell_lua_refusal(limits); /* a full collection, as a refused allocation forces */
    if (limits->used > limits->limit) {
      if (!limits->refused) dwell_lua_where(L, limits->where, sizeof limits->where);
      limits->refused = 1;
      lua_pushfstring(L, "%s memory limit exceeded (%I KiB)", limits->where, (lua_Integer)(limits->limit / 1024));
      results = DWELL_LUA_RAISE;
    }
  }
  limits->enforce = enforce;
  /* The bytes it went through (print, notify, publish...), charged as the bounded library
   * functions charge theirs, so a loop of such calls is stopped by the budget, not only the
   * clock; a unit for four bytes, not eight as for C's loops: the host decodes, escapes and
   * counts the characters of a text, more work a byte than a C loop does. */
  if (work > 0) dwell_lua_charge(L, 1 + work / 4);
  if (results == DWELL_LUA_RAISE) return lua_error(L);
  return results;
}

/// Records `bytes` of a script's values the running host function went through, charged to
/// the call when it returns (see dwell_lua_trampoline).
void dwell_lua_host_work(lua_State *L, long long bytes) { dwell_lua_limits_of(L)->host_work += bytes; }

/// Pushes a host function, with `upvalues` values already on the stack as its upvalues 2...
void dwell_lua_pushhost(lua_State *L, dwell_lua_host_function fn, int upvalues) {
  lua_pushlightuserdata(L, (void *)fn);
  lua_insert(L, -(upvalues + 1));
  lua_pushcclosure(L, dwell_lua_trampoline, upvalues + 1);
}

/* Whether a message starts with its place, "name:digits:": `name` is `source` (a file name
 * may hold spaces and colons) when the message starts with it, otherwise a word without a
 * space. `source` may be NULL. */
int dwell_lua_placed(const char *message, size_t length, const char *source) {
  size_t named = source ? strlen(source) : 0;
  const char *colon = NULL;
  if (named > 0 && named < length && strncmp(message, source, named) == 0 && message[named] == ':')
    colon = message + named;
  else {
    colon = memchr(message, ':', length < 200 ? length : 200);
    if (!colon || colon == message || memchr(message, ' ', (size_t)(colon - message))) return 0;
  }
  const char *digits = colon + 1;
  while (*digits >= '0' && *digits <= '9') digits++;
  return digits > colon + 1 && *digits == ':';
}

/* The file of a "file:line:" place, cut in `place` itself (its last two colons). */
static const char *dwell_lua_place_file(char *place) {
  size_t length = strlen(place);
  if (length < 3 || place[length - 1] != ':') return NULL;
  size_t colon = length - 1;
  while (colon > 0 && place[colon - 1] >= '0' && place[colon - 1] <= '9') colon--;
  if (colon == 0 || colon == length - 1 || place[colon - 1] != ':') return NULL;
  place[colon - 1] = 0;
  return place;
}

/* The message handler of every call from the host: the error names the designer's file and
 * line, found on the stack while it is still there (the innermost frame of script code, never
 * the prelude's). A message without a place gets one; "dwell:N:" (the prelude) is replaced;
 * an error value that is not a string is described without calling its metamethods. */
int dwell_lua_locate(lua_State *L) {
  char where[80];
  dwell_lua_where(L, where, sizeof where);
  int type = lua_type(L, 1);
  if (!lua_isstring(L, 1)) { /* numbers are messages, as in Lua */
    if (type == LUA_TNIL)
      lua_pushfstring(L, "%s error(nil): an error without a message", where);
    else
      lua_pushfstring(L, "%s error raised with a %s value, not a message", where, lua_typename(L, type));
    return 1;
  }
  size_t length = 0;
  const char *message = lua_tolstring(L, 1, &length);
  const char *rest = message;
  if (strncmp(rest, "dwell:", 6) == 0) { /* the prelude's place: replaced by the script's */
    const char *digits = rest + 6;
    while (*digits >= '0' && *digits <= '9') digits++;
    if (digits > rest + 6 && *digits == ':') {
      rest = digits + 1;
      while (*rest == ' ') rest++;
      lua_pushfstring(L, "%s %s", where, rest);
      return 1;
    }
  }
  char file[80];
  memcpy(file, where, sizeof file);
  if (where[0] == 0 || dwell_lua_placed(message, length, dwell_lua_place_file(file))) return 1;
  while (*rest == ' ') rest++;
  lua_pushfstring(L, "%s %s", where, rest);
  return 1;
}

/* After a failed call whose message names no place (a tail call left no frame of script code
 * on the stack): the message placed at the first line of `function`, the function called. */
static void dwell_lua_place_at_function(lua_State *L, dwell_lua_limits *limits, int function) {
  lua_Debug ar;
  if (limits->refused && limits->where[0] == 0) { /* memory refused unplaced (see dwell_lua_alloc) */
    lua_pushvalue(L, function);
    if (lua_getinfo(L, ">S", &ar) && ar.linedefined > 0 && strcmp(ar.short_src, "dwell") != 0)
      snprintf(limits->where, sizeof limits->where, "%s:%d:", ar.short_src, ar.linedefined);
  }
  size_t length = 0;
  const char *message = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &length) : NULL;
  if (!message) return;
  int enforce = limits->enforce;
  limits->enforce = 0; /* outside any protected call: no allocation may fail here */
  lua_pushvalue(L, function);
  if (lua_getinfo(L, ">S", &ar) && ar.linedefined > 0 && strcmp(ar.short_src, "dwell") != 0 &&
      !dwell_lua_placed(message, length, ar.short_src)) {
    while (*message == ' ') message++;
    lua_pushfstring(L, "%s:%d: %s", ar.short_src, ar.linedefined, message);
    lua_replace(L, -2);
  }
  limits->enforce = enforce;
}

/// Calls as lua_pcall does, with ``dwell_lua_locate`` as the message handler. The handler
/// waits at the bottom of the state's stack (index 1, pushed by ``dwell_lua_newstate``) and
/// the function called is copied to index 2, so a call moves nothing on the stack; called
/// from elsewhere (inside a C function), both are pushed below the function for the call.
/// When the error names no place, it is placed at the first line of the function called.
int dwell_lua_pcall(lua_State *L, dwell_lua_limits *limits, int nargs, int nresults) {
  int base = lua_gettop(L) - nargs;
  if (base > 2 && lua_tocfunction(L, 1) == dwell_lua_locate) {
    lua_copy(L, base, 2);
    int status = lua_pcall(L, nargs, nresults, 1);
    if (status != LUA_OK) dwell_lua_place_at_function(L, limits, 2);
    return status;
  }
  if (!lua_checkstack(L, 4)) return lua_pcall(L, nargs, nresults, 0);
  lua_pushvalue(L, base);
  lua_insert(L, base); /* a copy of the function, below */
  lua_pushcfunction(L, dwell_lua_locate);
  lua_insert(L, base + 1);
  int status = lua_pcall(L, nargs, nresults, base + 1);
  if (status != LUA_OK) dwell_lua_place_at_function(L, limits, base);
  lua_remove(L, base + 1);
  lua_remove(L, base);
  return status;
}

/// Calls the function below `nargs` values on the stack as script code under the pack's
/// limits: its allowance is the least of a call's budget, its share of the tick's and what
/// is left of the tick's (while loading: what is left of loading's), and its time likewise.
/// Counts what the call spent. Returns the protected call's status; `exhausted` says whether
/// a limit stopped it. Runs for every check on every tick: arithmetic only, no allocation.
int dwell_lua_call(lua_State *L, dwell_lua_limits *limits, int nargs, int nresults) {
  long long allowance, time_ms;
  int unit;
  if (limits->loading) {
    allowance = limits->load_work_limit - limits->load_work;
    unit = DWELL_LUA_PER_LOAD;
    time_ms = limits->load_ms - limits->load_ns / 1000000;
  } else {
    long long share = limits->per_tick_work / (limits->callables > 0 ? limits->callables : 1);
    long long own = share < limits->per_call ? share : limits->per_call;
    long long left = limits->per_tick_work - limits->tick_work;
    if (left < own) {
      allowance = left;
      unit = DWELL_LUA_PER_TICK;
    } else {
      allowance = own;
      unit = share < limits->per_call ? DWELL_LUA_PER_SHARED_CALL : DWELL_LUA_PER_CALL;
    }
    time_ms = limits->tick_ms - limits->tick_ns / 1000000;
    if (limits->call_ms < time_ms) time_ms = limits->call_ms;
  }
  if (allowance < 0) allowance = 0;
  if (time_ms < 1) time_ms = 1;
  limits->unit = unit;
  long long start = dwell_lua_arm(L, limits, allowance, unit == DWELL_LUA_PER_TICK, time_ms);
  /* An app counts the thread's processor time; the tools (a total bound set), whose calls
   * come many times a simulated second, the coarse clock's, which costs no system call.
   * Loading spends no sustained budget, so it reads neither. */
  int measured = !limits->loading && limits->total_limit_ns == 0;
  long long cpu_start = measured ? dwell_lua_thread_cpu_ns() : 0;
  limits->enforce = 1;
  int status = dwell_lua_pcall(L, limits, nargs, nresults);
  if (limits->fresh) dwell_lua_count_fresh(limits);
  if (limits->nuls && status == LUA_OK && nresults >= 0) {
    /* A string of too many NULs made by the call's last instruction (a tail call of a C
     * function): no instruction ran after it, so the hook did not refuse it; the call does. */
    lua_pop(L, nresults);
    limits->exhausted = 3;
    lua_pushfstring(L, "string limit exceeded (a string of more than %d NUL bytes, sandbox: comparing it would take "
                       "milliseconds an instruction)", DWELL_LUA_STRING_NULS);
    if (lua_tocfunction(L, 1) == dwell_lua_locate && lua_gettop(L) > 2) dwell_lua_place_at_function(L, limits, 2);
    status = LUA_ERRRUN;
  }
  limits->nuls = 0;
  limits->enforce = 0;
  long long work = allowance - (limits->budget > 0 ? limits->budget : 0);
  long long spent = dwell_lua_monotonic_ns() - start;
  if (limits->exhausted == 2) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long over = (long long)now.tv_sec * 1000000000LL + now.tv_nsec - start - time_ms * 1000000LL;
    if (over > limits->overshoot_ns) limits->overshoot_ns = over;
  }
  limits->last_work = work;
  if (limits->loading) {
    limits->load_work += work;
    limits->load_ns += spent;
  } else {
    limits->tick_work += work;
    limits->tick_ns += spent;
    /* The sustained budget counts the thread's processor time in an app, the coarse clock's
     * in the tools (and the per-call and per-tick limits, backstops against a hang, count
     * the wall clock's): host work its units underprice is counted either way. */
    dwell_lua_spend(limits, work, measured ? dwell_lua_thread_cpu_ns() - cpu_start : spent);
  }
  return status;
}

/// Starts the tick `tick` (a second of the clock) if it is a new one: the pack's budget per
/// tick is spent afresh from there. Returns 1 for a new tick.
int dwell_lua_enter_tick(dwell_lua_limits *limits, long long tick) {
  if (tick == limits->window) return 0;
  limits->window = tick;
  limits->tick_work = 0;
  limits->tick_ns = 0;
  return 1;
}

/// Whether the pack spent its budget (work or time) for the current tick (cut to its share
/// while throttled), or was stopped by its sustained budget (sustained.c).
int dwell_lua_tick_spent(const dwell_lua_limits *limits) {
  return limits->stopped || limits->tick_work >= limits->per_tick_work ||
         limits->tick_ns >= limits->tick_ms * 1000000LL;
}
