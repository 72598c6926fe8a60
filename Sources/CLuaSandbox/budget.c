/*
 * The limits of a Lua state and their accounting: the clocks of the time limits and of the
 * sustained budget, the allocator that enforces the memory cap (and tells strings.c of long
 * strings), the count hook that enforces the instruction budget, the charge library code
 * pays for its work, and arming a call.
 */
#include "sandbox.h"

/* The clock of the time limits, read twice per call: the coarse monotonic clock where there
 * is one (a third of the cost; it moves every few milliseconds, and the limits are backstops
 * counted in milliseconds, summed over many calls). */
long long dwell_lua_monotonic_ns(void) {
  struct timespec now;
#ifdef CLOCK_MONOTONIC_COARSE
  clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
#else
  clock_gettime(CLOCK_MONOTONIC, &now);
#endif
  return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* The processor time the calling thread has used, in nanoseconds: what the sustained budget
 * charges a call (the thread's own work: time it spent descheduled on a loaded machine is not
 * the pack's). Where there is no such clock, the monotonic one. */
long long dwell_lua_thread_cpu_ns(void) {
  struct timespec now;
#ifdef CLOCK_THREAD_CPUTIME_ID
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) == 0) return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
#endif
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* "file:line:" of the innermost script function on the stack, or "" (no allocation). */
void dwell_lua_where(lua_State *L, char *buffer, size_t size) {
  lua_Debug ar;
  buffer[0] = 0;
  for (int level = 0; level < 8 && lua_getstack(L, level, &ar); level++) {
    if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 && strcmp(ar.short_src, "dwell") != 0) {
      snprintf(buffer, size, "%s:%d:", ar.short_src, ar.currentline);
      return;
    }
  }
}

void *dwell_lua_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  dwell_lua_limits *limits = (dwell_lua_limits *)ud;
  size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    if (ptr && old >= DWELL_LUA_LONG_STRING) dwell_lua_forget(limits, ptr);
    free(ptr);
    limits->used -= old;
    return NULL;
  }
  if (limits->fresh) dwell_lua_count_fresh(limits); /* its bytes are written by now */
  if (limits->enforce && nsize > old && limits->used - old + nsize > limits->limit) {
    /* Where the script is, for the message, unless Lua may be moving its stack: Lua after
     * 5.4.4 (the bundled 5.4.8 does) turns the stack's pointers into offsets while it
     * reallocates the stack, and lua_getinfo would read them as pointers (a crash). A new
     * block is never the stack; a refusal left unplaced is placed after the call, at the
     * first line of the function called (dwell_lua_pcall). */
    if (!limits->refused && limits->L && (ptr == NULL || LUA_VERSION_RELEASE_NUM <= 50404))
      dwell_lua_where(limits->L, limits->where, sizeof limits->where);
    limits->refused = 1;
    dwell_lua_refusal(limits);
    return NULL;
  }
  if (ptr && old >= DWELL_LUA_LONG_STRING && nsize != old) dwell_lua_forget(limits, ptr); /* no string */
  void *block = realloc(ptr, nsize);
  if (block) {
    limits->used = limits->used - old + nsize;
    if (limits->used > limits->peak) limits->peak = limits->used;
    /* A new object's `osize` is its type: a long string's bytes are counted once written. */
    if (!ptr && osize == LUA_TSTRING && nsize >= DWELL_LUA_LONG_STRING) dwell_lua_new_string(limits, block, nsize);
  }
  return block;
}

/// An allocation refused (or the host's work past the cap, which forces a full collection
/// too): Lua collects everything before it gives up, work no instruction counts, so each is
/// charged by the memory the collector goes through, and a call that has had too many is
/// stopped (at the hook's next run, which runs at the next instruction).
void dwell_lua_refusal(dwell_lua_limits *limits) {
  limits->refusals++;
  limits->budget -= 64 + (long long)(limits->used / 128);
  if (limits->refusals >= DWELL_LUA_REFUSALS && limits->L && limits->step > 1 && !limits->charge_next) {
    limits->charge_next = limits->step;
    lua_sethook(limits->L, dwell_lua_count_hook, LUA_MASKCOUNT, 1);
  }
}

dwell_lua_limits *dwell_lua_limits_of(lua_State *L) {
  void *ud = NULL;
  lua_getallocf(L, &ud);
  return (dwell_lua_limits *)ud;
}

/* Pushes "<where> instruction budget exceeded (<allowance> instructions per <unit>)" for the
 * current call: the one text of that message, for the count hook and for the host. */
void dwell_lua_push_budget_message(lua_State *L, const dwell_lua_limits *limits, const char *where) {
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
  else if (limits->exhausted == 3)
    lua_pushfstring(L,
                    "%s string limit exceeded (a string of more than %d NUL bytes, sandbox: comparing it would "
                    "take milliseconds an instruction)",
                    where, DWELL_LUA_STRING_NULS);
  else if (limits->exhausted == 4)
    lua_pushfstring(L,
                    "%s memory limit exceeded (%I KiB; %d allocations refused in one call, each a full "
                    "collection)",
                    where, (lua_Integer)(limits->limit / 1024), DWELL_LUA_REFUSALS);
  else
    dwell_lua_push_budget_message(L, limits, where);
  return lua_error(L);
}

void dwell_lua_count_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  dwell_lua_limits *limits = dwell_lua_limits_of(L);
  if (limits->exhausted) {
    dwell_lua_exhaust(L, limits, limits->exhausted);
    return;
  }
  limits->budget -= limits->charge_next ? limits->charge_next : limits->step;
  limits->charge_next = 0;
  if (limits->fresh) dwell_lua_count_fresh(limits);
  if (limits->nuls) {
    limits->nuls = 0; /* the string is unreachable once the call stops */
    dwell_lua_exhaust(L, limits, 3);
  }
  if (limits->refusals >= DWELL_LUA_REFUSALS) dwell_lua_exhaust(L, limits, 4);
  if (limits->budget < 0) dwell_lua_exhaust(L, limits, 1);
  limits->clock_work = 0;
  if (limits->deadline && dwell_lua_monotonic_ns() > limits->deadline) dwell_lua_exhaust(L, limits, 2);
  int step = dwell_lua_string_step(limits, limits->base_step);
  if (step != limits->step) {
    limits->step = step;
    lua_sethook(L, dwell_lua_count_hook, LUA_MASKCOUNT, step);
  }
}

/// Charges `work` units done inside a C function to the current call's budget; raises
/// (sticky) when it runs out. Library wrappers call it before doing the work.
void dwell_lua_charge(lua_State *L, long long work) {
  dwell_lua_limits *limits = dwell_lua_limits_of(L);
  if (!limits->enforce) return;
  if (limits->exhausted) dwell_lua_exhaust(L, limits, limits->exhausted);
  if (work < 0 || work > limits->budget) {
    limits->budget = -1;
    dwell_lua_exhaust(L, limits, 1);
  }
  limits->budget -= work;
  /* The clock every 1,024 units of charged work (a few microseconds of it), however small
   * the charges (a pattern's steps come in chunks of that size). */
  limits->clock_work += work;
  if (limits->clock_work >= 1024) {
    limits->clock_work = 0;
    if (limits->deadline && dwell_lua_monotonic_ns() > limits->deadline) dwell_lua_exhaust(L, limits, 2);
  }
}

/// Arms the limits for one call from the host into script code.
/// The hook's count starts afresh, so a call is charged only its own instructions (not
/// what earlier calls left on the counter), and an allowance under a step is exact.
/// Returns the monotonic instant the call starts at (nanoseconds).
long long dwell_lua_arm(lua_State *L, dwell_lua_limits *limits, long long allowance, int per_tick,
                                      long long time_limit_ms) {
  if (limits->fresh) dwell_lua_count_fresh(limits);
  limits->base_step = allowance < DWELL_LUA_HOOK_STEP ? (allowance > 0 ? (int)allowance : 1) : DWELL_LUA_HOOK_STEP;
  limits->step = dwell_lua_string_step(limits, limits->base_step);
  limits->charge_next = 0;
  limits->clock_work = 0;
  limits->refusals = 0;
  if (limits->nuls) limits->step = 1; /* a string the parser made (a literal): refused at once */
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
