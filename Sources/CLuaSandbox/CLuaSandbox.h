#ifndef DWELL_CLUA_SANDBOX_H
#define DWELL_CLUA_SANDBOX_H
/*
 * The C side of Dwell's Lua sandbox, the one header of the CLuaSandbox module (module.modulemap
 * beside it; the .c files beside it hold the code): what must be C so that Lua's error handling
 * (longjmp) never unwinds a Swift frame, and wrappers for the Lua C API macros Swift cannot
 * import. Lua's own API comes through too:
 *  - budget.c: the allocator (memory cap), the count hook (instruction budget), the charge;
 *  - calls.c: the trampoline through which Lua calls Swift host functions (a Swift function
 *    returns DWELL_LUA_RAISE with an error message on the stack, and the C trampoline raises
 *    it after the Swift frame is gone), and the calls into scripts under the limits;
 *  - load.c: loading a script's text; allow-list.c: what rule packs get of Lua;
 *  - match.c, match-library.c: Lua patterns with every matching step charged;
 *  - libraries.c: the other library functions bounded by the work they do.
 */
#if __has_include("CLua.h")
/* Lua built from source (the bundled mode): CLua's public headers are on the search path. */
#include "CLua.h"
#else
/* The system library: the header of CLua's module map. */
#include "../CLua/system.h"
#endif
#include <stddef.h>

/// The costly strings the count hook keeps track of (see budget.c).
#define DWELL_LUA_COSTLY 32

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
  int exhausted;         /* 0, or why the call was stopped: 1 instructions, 2 time, 3 a string of
                            too many NULs, 4 too many allocations refused */
  long long deadline;    /* monotonic nanoseconds at which the call is stopped; 0: none */
  long long time_limit;  /* milliseconds the current call was given (for the message) */
  int refused;           /* 1 once the allocator refused a block during this call */
  char where[80];        /* "file:line:" of the script code running when memory was refused */
  lua_State *L;          /* the state, for `where` */
  int step;              /* instructions between two runs of the count hook in this call */
  /* The pack's accounting across calls, kept here so a call costs no bookkeeping in Swift
   * (see dwell_lua_call). Set by the host: */
  long long per_call;    /* work one call may do */
  long long per_tick_work; /* work all calls of one tick may do */
  long long callables;   /* checks and plugins sharing the tick's work */
  long long call_ms;     /* host time one call may take */
  long long tick_ms;     /* host time all calls of one tick may take */
  long long load_work_limit; /* work loading may do */
  long long load_ms;     /* host time loading's code may take */
  long long read_ms;     /* host time Lua's parser may take reading the pack's text, apart */
  int loading;           /* 1 while the pack's files run */
  /* Spent so far: */
  long long window;      /* the tick (second of the clock) being spent */
  long long tick_work, tick_ns; /* in the current tick */
  long long load_work, load_ns; /* while loading */
  long long read_ns;     /* reading the pack's text */
  long long last_work;   /* by the last call */
  long long host_work;   /* work the running host function did on the script's values */
  /* The sustained budget (sustained.c): host time over app time. Set by the host: */
  long long sustained_ppm;       /* share of one core the pack may use, in millionths; 0: none */
  long long sustained_window_ns; /* app time the share is averaged over */
  long long total_limit_ns;      /* host time the pack may take in all (the tools, where a call
                                    counts the coarse clock's time, not the thread's); 0: none */
  /* Spent so far: */
  long long level_ns;     /* host time spent and not yet drained by app time (a leaky bucket) */
  long long last_instant; /* the app instant (monotonic ns) the level was last drained at */
  long long throttled_ns; /* app time the pack waited over its share, in all */
  long long total_ns;     /* host time the pack took in all */
  long long full_tick_work, full_tick_ms; /* per_tick_work and tick_ms when not throttled */
  int throttled;          /* 1 while the pack's tick budget is cut to its share (sustained.c) */
  int over_total;         /* 1 once past total_limit_ns: throttled for good */
  int stopped;            /* 1 once throttled a whole window: the host disables the heaviest */
  int stop_reported;      /* 1 once the host reported the stop */
  /* Work one instruction does that no count sees (budget.c): comparing a long string runs
   * C loops over its bytes (strcoll per NUL-separated segment, memcmp), so the count hook
   * runs more often while such a string is alive, and a string of too many NULs is refused.
   * Kept by the allocator and the hook: */
  void *fresh;            /* the newest long string, its bytes not yet counted */
  size_t fresh_size;
  struct { void *block; long long cost; } costly[DWELL_LUA_COSTLY]; /* ns one comparison may take */
  int costly_count;
  long long evicted_cost; /* the costliest string no longer in `costly` (it was full) */
  long long worst_ns;     /* the most ns one instruction may spend on a string alive */
  long long nuls;         /* NULs of a string the hook refuses (0: none) */
  int base_step;          /* the count hook's step for the call without costly strings */
  long long charge_next;  /* instructions the hook's next run charges, when it was re-armed
                             before its count ran out (the whole step: the count is unknown) */
  long long clock_work;   /* work charged since the clock was last read */
  int refusals;           /* allocations refused during this call (each a full collection) */
  long long overshoot_ns; /* the most a call stopped by its time limit ran past it (measured
                             from its start on the coarse clock to its end on the precise one) */
} dwell_lua_limits;

#define DWELL_LUA_PER_CALL 0
#define DWELL_LUA_PER_SHARED_CALL 1
#define DWELL_LUA_PER_TICK 2
#define DWELL_LUA_PER_LOAD 3

/// What a host function returns to raise the error message it left on the stack.
#define DWELL_LUA_RAISE (-1)
/// Instructions between two runs of the count hook (each reads the clock) when no costly
/// string is alive: the strings below a long one's size compare in 10 µs at most (1 KiB of
/// NULs), 2.5 ms for the step.
#define DWELL_LUA_HOOK_STEP 250
/// A string of this many bytes or more is a long one: its bytes are counted once made.
#define DWELL_LUA_LONG_STRING 1024
/// The most NULs a string may hold while scripts run (Lua compares strings with strcoll
/// segment by segment, ~10 ns a segment: one `<` of 4 MB of NULs took 40 ms).
#define DWELL_LUA_STRING_NULS 65536
/// Allocations one call may have refused (each forces a full collection) before it stops.
#define DWELL_LUA_REFUSALS 8

/// A Swift function Lua calls through the trampoline (see dwell_lua_pushhost).
typedef int (*dwell_lua_host_function)(lua_State *L);

/// A new state whose allocations count against `limits` (NULL when Lua cannot make one).
lua_State *dwell_lua_newstate(dwell_lua_limits *limits);

/// Pushes a host function, with `upvalues` values already on the stack as its upvalues 2...
void dwell_lua_pushhost(lua_State *L, dwell_lua_host_function fn, int upvalues);

/// Records `bytes` of a script's values the running host function went through, charged to
/// the call when it returns.
void dwell_lua_host_work(lua_State *L, long long bytes);

/// Calls the function below `nargs` values on the stack as script code under the pack's
/// limits (see calls.c). Returns the protected call's status.
int dwell_lua_call(lua_State *L, dwell_lua_limits *limits, int nargs, int nresults);

/// Starts the tick `tick` (a second of the clock) if it is a new one. Returns 1 for a new tick.
int dwell_lua_enter_tick(dwell_lua_limits *limits, long long tick);

/// Whether the pack spent its budget (work or time) for the current tick, or waits for its
/// sustained share (throttled) or was stopped by it.
int dwell_lua_tick_spent(const dwell_lua_limits *limits);

/// Drains the sustained budget's level by the app time since the last instant (monotonic
/// nanoseconds of the engine's clock) and decides whether the pack waits (see sustained.c).
void dwell_lua_sustain(dwell_lua_limits *limits, long long instant);

/// Adds a call's cost to the sustained budget: its host time (the processor time of the
/// thread that ran it, `dwell_lua_thread_cpu_ns`, in an app; the monotonic clock's in the
/// tools), and at least its work at the nominal nanoseconds per unit (so a fast machine and a
/// manual clock count it alike).
void dwell_lua_spend(dwell_lua_limits *limits, long long work, long long host_ns);

/// Ends a throttle: the pack's budget per tick back to its own.
void dwell_lua_unthrottle(dwell_lua_limits *limits);

/// The host time, in nanoseconds, a unit of work counts at least in the sustained budget.
#define DWELL_LUA_NS_PER_UNIT 3

/// The monotonic clock the limits' deadlines are read on, in nanoseconds: for host work that
/// checks a call's deadline between two of the count hook's looks at the clock.
long long dwell_lua_monotonic_ns(void);

/// The processor time the calling thread has used, in nanoseconds (the monotonic clock where
/// the system has no such clock): what a call costs the sustained budget.
long long dwell_lua_thread_cpu_ns(void);

/// Pushes "<where> instruction budget exceeded (...)" for the current call.
void dwell_lua_push_budget_message(lua_State *L, const dwell_lua_limits *limits, const char *where);

/// Whether a message starts with its place, "name:digits:" (`source` may be NULL).
int dwell_lua_placed(const char *message, size_t length, const char *source);

/// Loads a text chunk (never a binary one) of `length` bytes, NULs included; `line` is set to
/// the line the parser was reading when it stopped (the last line on success). While the
/// pack loads, parsing counts against a time limit of its own, `read_ms` (see load.c).
int dwell_lua_loadtext(lua_State *L, dwell_lua_limits *limits, const char *text, size_t length,
                       const char *chunkname, int *line);

/// Wraps the library functions whose C loops run long in one call (before scripts run).
void dwell_lua_bound_libraries(lua_State *L);

/// Pops a table, a key and a value and sets the field raw, in a protected call: an error
/// (memory) is returned as a status with its message on the stack, never raised.
int dwell_lua_protected_rawset(lua_State *L);

/// One line of the sandbox's allow-list: a library of Lua's ("_G" for the base library's
/// globals) and the names in it rule packs get, separated by spaces.
typedef struct dwell_lua_allowed {
  const char *library;
  const char *names;
} dwell_lua_allowed;

/// The allow-list the prelude builds the sandbox from, and the messages name; `count` is set
/// to its number of lines.
const dwell_lua_allowed *dwell_lua_allow_list(size_t *count);

/// Pushes the allow-list as a table, library = names, for the prelude.
void dwell_lua_push_allow_list(lua_State *L);

/* Lua's API macros, as functions Swift can call. */
static inline void dwell_lua_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline const char *dwell_lua_tostring(lua_State *L, int i) { return lua_tostring(L, i); }
static inline lua_Number dwell_lua_tonumber(lua_State *L, int i) { return lua_tonumber(L, i); }
static inline int dwell_lua_isfunction(lua_State *L, int i) { return lua_isfunction(L, i); }
static inline int dwell_lua_istable(lua_State *L, int i) { return lua_istable(L, i); }
static inline int dwell_lua_isnil(lua_State *L, int i) { return lua_isnil(L, i); }
static inline void dwell_lua_remove(lua_State *L, int i) { lua_remove(L, i); }
static inline int dwell_lua_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline int dwell_lua_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int dwell_lua_ok(void) { return LUA_OK; }
static inline int dwell_lua_errmem(void) { return LUA_ERRMEM; }
static inline void **dwell_lua_extraspace(lua_State *L) { return (void **)lua_getextraspace(L); }
#endif
