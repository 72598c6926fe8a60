#ifndef DWELL_CLUA_SHIM_H
#define DWELL_CLUA_SHIM_H
#if __has_include(<lua5.4/lua.h>)
#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>
#else
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include <limits.h>
#include <ctype.h>

/*
 * Wrappers for the Lua C API macros Swift cannot import, plus three pieces that must be
 * C so that Lua's error handling (longjmp) never unwinds a Swift frame:
 *  - the allocator, which enforces the memory cap;
 *  - the count hook, which enforces the instruction budget;
 *  - the trampoline through which Lua calls Swift host functions: a Swift function
 *    returns DWELL_LUA_RAISE with an error message on the stack, and the C trampoline
 *    raises it after the Swift frame is gone.
 */

/// Per-state limits, owned by the Swift side and reachable from the allocator's user data.
typedef struct dwell_lua_limits {
  size_t used;           /* bytes allocated now */
  size_t peak;           /* most bytes ever allocated */
  size_t limit;          /* cap while script code runs */
  int enforce;           /* 1 while script code runs, 0 while the host works */
  long long budget;      /* work units left for the current call */
  long long allowance;   /* work units the current call was given (for the message) */
  int per_tick;          /* 1 when the allowance is what is left of the pack's tick budget */
  int unit;              /* what the allowance is per, for the message: a DWELL_LUA_PER_ value */
  int exhausted;         /* 0, or why the call was stopped: 1 instructions, 2 time */
  long long deadline;    /* monotonic nanoseconds at which the call is stopped; 0: none */
  long long time_limit;  /* milliseconds the current call was given (for the message) */
  int refused;           /* 1 once the allocator refused a block during this call */
  char where[80];        /* "file:line:" of the script code running when memory was refused */
  lua_State *L;          /* the state, for `where` */
  int step;              /* instructions between two runs of the count hook in this call */
  lua_CFunction handler; /* the message handler at the bottom of the stack (see dwell_lua_pcall) */
  /* The pack's accounting across calls, kept here so a call costs no bookkeeping in Swift
   * (see dwell_lua_call). Set by the host: */
  long long per_call;    /* work one call may do */
  long long per_tick_work; /* work all calls of one tick may do */
  long long callables;   /* checks and plugins sharing the tick's work */
  long long call_ms;     /* host time one call may take */
  long long tick_ms;     /* host time all calls of one tick may take */
  long long load_work_limit; /* work loading may do */
  long long load_ms;     /* host time loading may take */
  int loading;           /* 1 while the pack's files run */
  /* Spent so far: */
  long long window;      /* the tick (second of the clock) being spent */
  long long tick_work, tick_ns; /* in the current tick */
  long long load_work, load_ns; /* while loading */
  long long last_work;   /* by the last call */
} dwell_lua_limits;

#define DWELL_LUA_PER_CALL 0
#define DWELL_LUA_PER_SHARED_CALL 1
#define DWELL_LUA_PER_TICK 2
#define DWELL_LUA_PER_LOAD 3

#define DWELL_LUA_RAISE (-1)
#define DWELL_LUA_HOOK_STEP 1000

/* The clock of the time limits, read twice per call: the coarse monotonic clock where there
 * is one (a third of the cost; it moves every few milliseconds, and the limits are backstops
 * counted in milliseconds, summed over many calls). */
static inline long long dwell_lua_monotonic_ns(void) {
  struct timespec now;
#ifdef CLOCK_MONOTONIC_COARSE
  clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
#else
  clock_gettime(CLOCK_MONOTONIC, &now);
#endif
  return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* "file:line:" of the innermost script function on the stack, or "" (no allocation). */
static void dwell_lua_where(lua_State *L, char *buffer, size_t size) {
  lua_Debug ar;
  buffer[0] = 0;
  for (int level = 0; level < 8 && lua_getstack(L, level, &ar); level++) {
    if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 && strcmp(ar.short_src, "dwell") != 0) {
      snprintf(buffer, size, "%s:%d:", ar.short_src, ar.currentline);
      return;
    }
  }
}

static void *dwell_lua_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  dwell_lua_limits *limits = (dwell_lua_limits *)ud;
  size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    free(ptr);
    limits->used -= old;
    return NULL;
  }
  if (limits->enforce && nsize > old && limits->used - old + nsize > limits->limit) {
    if (!limits->refused && limits->L) dwell_lua_where(limits->L, limits->where, sizeof limits->where);
    limits->refused = 1;
    return NULL;
  }
  void *block = realloc(ptr, nsize);
  if (block) {
    limits->used = limits->used - old + nsize;
    if (limits->used > limits->peak) limits->peak = limits->used;
  }
  return block;
}

static inline dwell_lua_limits *dwell_lua_limits_of(lua_State *L) {
  void *ud = NULL;
  lua_getallocf(L, &ud);
  return (dwell_lua_limits *)ud;
}

static void dwell_lua_count_hook(lua_State *L, lua_Debug *ar);

/* Pushes "<where> instruction budget exceeded (<allowance> instructions per <unit>)" for the
 * current call: the one text of that message, for the count hook and for the host. */
static void dwell_lua_push_budget_message(lua_State *L, const dwell_lua_limits *limits, const char *where) {
  const char *unit = limits->unit == DWELL_LUA_PER_TICK ? "tick for the pack"
                     : limits->unit == DWELL_LUA_PER_LOAD ? "load of the pack"
                                                          : "call";
  if (limits->unit == DWELL_LUA_PER_SHARED_CALL)
    lua_pushfstring(L,
                    "%s instruction budget exceeded (%I instructions per call: the pack's %I per tick shared by "
                    "%I checks and plugins)",
                    where, (lua_Integer)limits->allowance, (lua_Integer)limits->per_tick_work,
                    (lua_Integer)limits->callables);
  else
    lua_pushfstring(L, "%s instruction budget exceeded (%I instructions per %s)", where,
                    (lua_Integer)limits->allowance, unit);
}

/* Stops the current call for good: from now on every instruction raises the error again
 * (the hook fires on each), so neither pcall nor a message handler can carry on. */
static int dwell_lua_exhaust(lua_State *L, dwell_lua_limits *limits, int why) {
  if (!limits->exhausted) {
    limits->exhausted = why;
    lua_sethook(L, dwell_lua_count_hook, LUA_MASKCOUNT, 1);
  }
  char where[80];
  dwell_lua_where(L, where, sizeof where);
  if (limits->exhausted == 2)
    lua_pushfstring(L, "%s time limit exceeded (%I ms)", where, (lua_Integer)limits->time_limit);
  else
    dwell_lua_push_budget_message(L, limits, where);
  return lua_error(L);
}

static void dwell_lua_count_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  dwell_lua_limits *limits = dwell_lua_limits_of(L);
  if (limits->exhausted) {
    dwell_lua_exhaust(L, limits, limits->exhausted);
    return;
  }
  limits->budget -= limits->step;
  if (limits->budget < 0) dwell_lua_exhaust(L, limits, 1);
  if (limits->deadline && dwell_lua_monotonic_ns() > limits->deadline) dwell_lua_exhaust(L, limits, 2);
}

/// Charges `work` units done inside a C function to the current call's budget; raises
/// (sticky) when it runs out. Library wrappers call it before doing the work.
static inline void dwell_lua_charge(lua_State *L, long long work) {
  dwell_lua_limits *limits = dwell_lua_limits_of(L);
  if (!limits->enforce) return;
  if (limits->exhausted) dwell_lua_exhaust(L, limits, limits->exhausted);
  if (work < 0 || work > limits->budget) {
    limits->budget = -1;
    dwell_lua_exhaust(L, limits, 1);
  }
  limits->budget -= work;
  if (limits->deadline && work > 4096 && dwell_lua_monotonic_ns() > limits->deadline) dwell_lua_exhaust(L, limits, 2);
}

/// Arms the limits for one call from the host into script code.
/// The hook's count starts afresh, so a call is charged only its own instructions (not
/// what earlier calls left on the counter), and an allowance under a step is exact.
/// Returns the monotonic instant the call starts at (nanoseconds).
static inline long long dwell_lua_arm(lua_State *L, dwell_lua_limits *limits, long long allowance, int per_tick,
                                      long long time_limit_ms) {
  limits->step = allowance < DWELL_LUA_HOOK_STEP ? (allowance > 0 ? (int)allowance : 1) : DWELL_LUA_HOOK_STEP;
  lua_sethook(L, dwell_lua_count_hook, LUA_MASKCOUNT, limits->step);
  limits->budget = allowance;
  limits->allowance = allowance;
  limits->per_tick = per_tick;
  limits->exhausted = 0;
  limits->refused = 0;
  limits->where[0] = 0;
  limits->time_limit = time_limit_ms;
  long long now = dwell_lua_monotonic_ns();
  limits->deadline = time_limit_ms > 0 ? now + time_limit_ms * 1000000LL : 0;
  return now;
}

static int dwell_lua_locate(lua_State *L);

static inline lua_State *dwell_lua_newstate(dwell_lua_limits *limits) {
  lua_State *L = lua_newstate(dwell_lua_alloc, limits);
  if (L) {
    /* Index 1 for good: every call's message handler. A static function has one address
     * per object file that uses it, so calls compare with the one pushed here. */
    limits->handler = dwell_lua_locate;
    lua_pushcfunction(L, dwell_lua_locate);
    lua_pushnil(L); /* index 2: the function of the current call, for errors (see dwell_lua_pcall) */
    limits->L = L;
    limits->step = DWELL_LUA_HOOK_STEP;
    lua_sethook(L, dwell_lua_count_hook, LUA_MASKCOUNT, DWELL_LUA_HOOK_STEP);
  }
  return L;
}

typedef int (*dwell_lua_host_function)(lua_State *L);

static int dwell_lua_trampoline(lua_State *L) {
  dwell_lua_host_function fn = (dwell_lua_host_function)lua_touserdata(L, lua_upvalueindex(1));
  dwell_lua_limits *limits = dwell_lua_limits_of(L);
  /* Host code runs no script code (it reads tables raw and calls no metamethods), so it may
   * allocate freely; what it leaves behind counts against the cap as soon as it returns. */
  int enforce = limits->enforce;
  limits->enforce = 0;
  int results = fn(L);
  if (enforce && results != DWELL_LUA_RAISE && limits->used > limits->limit) {
    lua_gc(L, LUA_GCCOLLECT, 0);
    if (limits->used > limits->limit) {
      if (!limits->refused) dwell_lua_where(L, limits->where, sizeof limits->where);
      limits->refused = 1;
      lua_pushfstring(L, "%s memory limit exceeded (%I KiB)", limits->where, (lua_Integer)(limits->limit / 1024));
      results = DWELL_LUA_RAISE;
    }
  }
  limits->enforce = enforce;
  if (results == DWELL_LUA_RAISE) return lua_error(L);
  return results;
}

/// Pushes a host function, with `upvalues` values already on the stack as its upvalues 2...
static inline void dwell_lua_pushhost(lua_State *L, dwell_lua_host_function fn, int upvalues) {
  lua_pushlightuserdata(L, (void *)fn);
  lua_insert(L, -(upvalues + 1));
  lua_pushcclosure(L, dwell_lua_trampoline, upvalues + 1);
}

/* Whether a message starts with its place, "name:digits:". */
static int dwell_lua_placed(const char *message, size_t length) {
  const char *colon = memchr(message, ':', length < 200 ? length : 200);
  if (!colon || colon == message || memchr(message, ' ', (size_t)(colon - message))) return 0;
  const char *digits = colon + 1;
  while (*digits >= '0' && *digits <= '9') digits++;
  return digits > colon + 1 && *digits == ':';
}

/* The message handler of every call from the host: the error names the designer's file and
 * line, found on the stack while it is still there (the innermost frame of script code, never
 * the prelude's). A message without a place gets one; "dwell:N:" (the prelude) is replaced;
 * an error value that is not a string is described without calling its metamethods. */
static int dwell_lua_locate(lua_State *L) {
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
  if (dwell_lua_placed(message, length) || where[0] == 0) return 1;
  while (*rest == ' ') rest++;
  lua_pushfstring(L, "%s %s", where, rest);
  return 1;
}

/* After a failed call whose message names no place (a tail call left no frame of script code
 * on the stack): the message placed at the first line of `function`, the function called. */
static void dwell_lua_place_at_function(lua_State *L, dwell_lua_limits *limits, int function) {
  size_t length = 0;
  const char *message = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &length) : NULL;
  if (!message || dwell_lua_placed(message, length)) return;
  int enforce = limits->enforce;
  limits->enforce = 0; /* outside any protected call: no allocation may fail here */
  lua_Debug ar;
  lua_pushvalue(L, function);
  if (lua_getinfo(L, ">S", &ar) && ar.linedefined > 0 && strcmp(ar.short_src, "dwell") != 0) {
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
static inline int dwell_lua_pcall(lua_State *L, dwell_lua_limits *limits, int nargs, int nresults) {
  int base = lua_gettop(L) - nargs;
  if (base > 2 && lua_tocfunction(L, 1) == limits->handler) {
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
static inline int dwell_lua_call(lua_State *L, dwell_lua_limits *limits, int nargs, int nresults) {
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
  limits->enforce = 1;
  int status = dwell_lua_pcall(L, limits, nargs, nresults);
  limits->enforce = 0;
  long long work = allowance - (limits->budget > 0 ? limits->budget : 0);
  long long spent = dwell_lua_monotonic_ns() - start;
  limits->last_work = work;
  if (limits->loading) {
    limits->load_work += work;
    limits->load_ns += spent;
  } else {
    limits->tick_work += work;
    limits->tick_ns += spent;
  }
  return status;
}

/// Starts the tick `tick` (a second of the clock) if it is a new one: the pack's budget per
/// tick is spent afresh from there. Returns 1 for a new tick.
static inline int dwell_lua_enter_tick(dwell_lua_limits *limits, long long tick) {
  if (tick == limits->window) return 0;
  limits->window = tick;
  limits->tick_work = 0;
  limits->tick_ns = 0;
  return 1;
}

/// Whether the pack spent its budget (work or time) for the current tick.
static inline int dwell_lua_tick_spent(const dwell_lua_limits *limits) {
  return limits->tick_work >= limits->per_tick_work || limits->tick_ns >= limits->tick_ms * 1000000LL;
}

static inline void dwell_lua_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void dwell_lua_newtable(lua_State *L) { lua_newtable(L); }
static inline const char *dwell_lua_tostring(lua_State *L, int i) { return lua_tostring(L, i); }
static inline lua_Number dwell_lua_tonumber(lua_State *L, int i) { return lua_tonumber(L, i); }
static inline int dwell_lua_isfunction(lua_State *L, int i) { return lua_isfunction(L, i); }
static inline int dwell_lua_istable(lua_State *L, int i) { return lua_istable(L, i); }
static inline int dwell_lua_isnil(lua_State *L, int i) { return lua_isnil(L, i); }
static inline void dwell_lua_insert(lua_State *L, int i) { lua_insert(L, i); }
static inline void dwell_lua_remove(lua_State *L, int i) { lua_remove(L, i); }
static inline int dwell_lua_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline int dwell_lua_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int dwell_lua_loadtext(lua_State *L, const char *text, size_t length, const char *chunkname) {
  return luaL_loadbufferx(L, text, length, chunkname, "t");
}
static inline int dwell_lua_ok(void) { return LUA_OK; }
static inline void **dwell_lua_extraspace(lua_State *L) { return (void **)lua_getextraspace(L); }
static inline int dwell_lua_errmem(void) { return LUA_ERRMEM; }

/* ---- Library functions bounded by the work they do ---------------------------------
 * Each wraps the library's own C function: it charges the work the call is about to do
 * (bytes or elements it goes through) to the budget, then runs the original in the same
 * call frame, so argument errors and positions read as before. */

enum { DWELL_BYTES, DWELL_REP, DWELL_RANGE_LEN, DWELL_MOVE, DWELL_ARGS, DWELL_SORT, DWELL_LEN_SHIFT };

static inline long long dwell_lua_len_of(lua_State *L, int index) {
  if (!lua_istable(L, index)) return 0;
  lua_len(L, index); /* as the original will: __len may run (script code, under the budget) */
  int ok = 0;
  long long n = (long long)lua_tointegerx(L, -1, &ok);
  lua_pop(L, 1);
  return ok ? n : 0;
}

static inline long long dwell_lua_opt(lua_State *L, int index, long long otherwise) {
  int ok = 0;
  lua_Integer value = lua_tointegerx(L, index, &ok); /* floats with an integer value too, as the originals */
  return ok ? (long long)value : otherwise;
}

static long long dwell_lua_span(long long from, long long to) {
  if (to < from) return 0;
  if (from < 0 && to > LLONG_MAX + from) return LLONG_MAX;
  return to - from + 1;
}

/* `a < b` as table.sort compares without a comparator, charging the bytes two strings may
 * compare (the comparison itself is one C call, which no instruction count sees). */
static int dwell_lua_less(lua_State *L) {
  if (lua_type(L, 1) == LUA_TSTRING && lua_type(L, 2) == LUA_TSTRING) {
    size_t a = 0, b = 0;
    lua_tolstring(L, 1, &a);
    lua_tolstring(L, 2, &b);
    if (a > 64 && b > 64) dwell_lua_charge(L, (long long)((a < b ? a : b) / 8));
  }
  lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
  return 1;
}

static int dwell_lua_bounded(lua_State *L) {
  lua_CFunction original = (lua_CFunction)lua_touserdata(L, lua_upvalueindex(1));
  int kind = (int)lua_tointeger(L, lua_upvalueindex(2));
  long long work = 1;
  size_t length = 0;
  switch (kind) {
  case DWELL_BYTES: /* upper, lower, reverse, sub, format, utf8.len, utf8.offset, tostring */
    for (int i = 1, n = lua_gettop(L); i <= n && i <= 8; i++)
      if (lua_type(L, i) == LUA_TSTRING) { lua_tolstring(L, i, &length); work += (long long)(length / 8); }
    break;
  case DWELL_REP: {
    size_t sep = 0;
    if (lua_type(L, 1) == LUA_TSTRING) lua_tolstring(L, 1, &length);
    if (lua_type(L, 3) == LUA_TSTRING) lua_tolstring(L, 3, &sep);
    double n = lua_isnumber(L, 2) ? (double)lua_tonumber(L, 2) : 0;
    double total = n > 0 ? n + n * (double)(length + sep) / 8 : 0;
    work = total > 9e18 ? LLONG_MAX : (long long)total;
    break;
  }
  case DWELL_RANGE_LEN: /* table.concat(t, sep, i, j), table.unpack(t, i, j), utf8.codepoint(s, i, j) */
    if (lua_type(L, 1) == LUA_TSTRING) {
      lua_tolstring(L, 1, &length);
      work = dwell_lua_span(dwell_lua_opt(L, 2, 1), dwell_lua_opt(L, 3, dwell_lua_opt(L, 2, 1)));
    } else if (lua_toboolean(L, lua_upvalueindex(3))) {
      work = dwell_lua_span(dwell_lua_opt(L, 3, 1), lua_isnoneornil(L, 4) ? dwell_lua_len_of(L, 1) : dwell_lua_opt(L, 4, 0));
    } else {
      work = dwell_lua_span(dwell_lua_opt(L, 2, 1), lua_isnoneornil(L, 3) ? dwell_lua_len_of(L, 1) : dwell_lua_opt(L, 3, 0));
    }
    break;
  case DWELL_MOVE: /* table.move(a1, f, e, t, a2) */
    work = dwell_lua_span(dwell_lua_opt(L, 2, 1), dwell_lua_opt(L, 3, 0));
    break;
  case DWELL_ARGS: /* string.char, utf8.char, table.pack */
    work = lua_gettop(L);
    break;
  case DWELL_SORT: {
    long long n = dwell_lua_len_of(L, 1), log = 1;
    while ((1LL << log) < n && log < 62) log++;
    work = n > 0 && n < LLONG_MAX / log ? n * log : (n > 0 ? LLONG_MAX : 1);
    if (lua_isnoneornil(L, 2)) { /* the default order, through a comparison that charges long strings */
      lua_settop(L, 1);
      lua_pushcfunction(L, dwell_lua_less);
    }
    break;
  }
  case DWELL_LEN_SHIFT: /* table.insert, table.remove: shift up to #t elements */
    work = 1 + dwell_lua_len_of(L, 1);
    break;
  }
  dwell_lua_charge(L, work < 1 ? 1 : work);
  return original(L);
}

static void dwell_lua_bound(lua_State *L, const char *table, const char *name, int kind, int flag) {
  if (lua_getglobal(L, table) != LUA_TTABLE) { lua_pop(L, 1); return; }
  lua_getfield(L, -1, name);
  lua_CFunction original = lua_tocfunction(L, -1);
  lua_pop(L, 1);
  if (original) {
    lua_pushlightuserdata(L, (void *)original);
    lua_pushinteger(L, kind);
    lua_pushboolean(L, flag);
    lua_pushcclosure(L, dwell_lua_bounded, 3);
    lua_setfield(L, -2, name);
  }
  lua_pop(L, 1);
}

/* Raising an error and catching it (the message with its position, the unwinding to the
 * protected call) takes about a hundred instructions' time that the count hook never sees:
 * measured with Lua 5.4 here, ~280 ns for `pcall(error, 'x')` and ~780 ns for a runtime
 * error caught by pcall, against ~2.7 ns an instruction. A script catching errors in a
 * loop is charged for each, so the budget bounds it as it bounds other work. */
enum { DWELL_LUA_CAUGHT_ERROR_WORK = 100 };

/* pcall and xpcall, run in this frame as the originals (so yields across them still work),
 * charging an error they caught. */
static int dwell_lua_protected(lua_State *L) {
  lua_CFunction original = (lua_CFunction)lua_touserdata(L, lua_upvalueindex(1));
  int results = original(L);
  if (results > 0 && !lua_toboolean(L, -results)) dwell_lua_charge(L, DWELL_LUA_CAUGHT_ERROR_WORK);
  return results;
}

static void dwell_lua_bound_protected(lua_State *L, const char *name) {
  lua_getglobal(L, name);
  lua_CFunction original = lua_tocfunction(L, -1);
  lua_pop(L, 1);
  if (!original) return;
  lua_pushlightuserdata(L, (void *)original);
  lua_pushcclosure(L, dwell_lua_protected, 1);
  lua_setglobal(L, name);
}

#include "match.h"

/// Wraps the library functions whose C loops run long in one call (before scripts run).
static inline void dwell_lua_bound_libraries(lua_State *L) {
  dwell_lua_bound_patterns(L);
  dwell_lua_bound_protected(L, "pcall");
  dwell_lua_bound_protected(L, "xpcall");
  static const char *bytes[] = {"string", "upper", "string", "lower", "string", "reverse", "string", "sub",
                                "string", "format", "string", "byte", "utf8", "len", "utf8", "offset", 0};
  for (int i = 0; bytes[i]; i += 2) dwell_lua_bound(L, bytes[i], bytes[i + 1], DWELL_BYTES, 0);
  dwell_lua_bound(L, "_G", "tonumber", DWELL_BYTES, 0);
  dwell_lua_bound(L, "_G", "tostring", DWELL_BYTES, 0);
  dwell_lua_bound(L, "string", "rep", DWELL_REP, 0);
  dwell_lua_bound(L, "table", "concat", DWELL_RANGE_LEN, 1);
  dwell_lua_bound(L, "table", "unpack", DWELL_RANGE_LEN, 0);
  dwell_lua_bound(L, "utf8", "codepoint", DWELL_RANGE_LEN, 0);
  dwell_lua_bound(L, "table", "move", DWELL_MOVE, 0);
  dwell_lua_bound(L, "table", "sort", DWELL_SORT, 0);
  dwell_lua_bound(L, "table", "insert", DWELL_LEN_SHIFT, 0);
  dwell_lua_bound(L, "table", "remove", DWELL_LEN_SHIFT, 0);
  dwell_lua_bound(L, "string", "char", DWELL_ARGS, 0);
  dwell_lua_bound(L, "utf8", "char", DWELL_ARGS, 0);
  dwell_lua_bound(L, "table", "pack", DWELL_ARGS, 0);
}

static int dwell_lua_rawset_k(lua_State *L) {
  lua_rawset(L, 1);
  return 0;
}

/// Pops a table, a key and a value and sets the field raw, in a protected call: an error
/// (memory) is returned as a status with its message on the stack, never raised.
static inline int dwell_lua_protected_rawset(lua_State *L) {
  lua_pushcfunction(L, dwell_lua_rawset_k);
  lua_insert(L, -4);
  return lua_pcall(L, 3, 0, 0);
}
#endif
