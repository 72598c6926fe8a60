/*
 * Costly strings: what one instruction may spend comparing a long string, and how often the
 * count hook must look at the clock while such a string is alive. Lua compares strings
 * (`<`, `<=`, `==`, table keys) in C loops no count sees: `<` calls strcoll once for each
 * NUL-separated segment the strings share (~10 ns a segment: 4 MB of NULs took 40 ms an
 * instruction), and memcmp or strcoll go through their bytes. The allocator sees each long
 * string made (its bytes are written before Lua allocates again, or runs an instruction);
 * its bytes and NULs are counted once, the costliest are kept, and the count hook's step is
 * cut so that the instructions between two of its runs spend about a millisecond at most.
 * A string of more than DWELL_LUA_STRING_NULS NULs is refused. Arithmetic on a few fields,
 * except for a string's one count of its bytes (charged to the call).
 */
#include "sandbox.h"

/* The host time a step of the hook's count may spend on costly strings. */
enum { DWELL_LUA_STEP_NS = 1000000 };
/* What comparing costs: a quarter of a nanosecond a byte (memcmp, strcoll on text in the C
 * locale; measured up to 0.17), 10 ns a NUL (a strcoll call and two strlen; measured 9.6). */
enum { DWELL_LUA_NS_PER_NUL = 10 };
/* A string is costly when the hook's usual step of comparisons of it would take over the
 * step's time (4 µs: 16 KB, or 400 NULs). */
enum { DWELL_LUA_COSTLY_NS = DWELL_LUA_STEP_NS / DWELL_LUA_HOOK_STEP };

static void dwell_lua_update_worst(dwell_lua_limits *limits) {
  long long worst = limits->evicted_cost;
  for (int i = 0; i < limits->costly_count; i++)
    if (limits->costly[i].cost > worst) worst = limits->costly[i].cost;
  limits->worst_ns = worst;
}

/* Keeps a costly string; when the list is full, the cheapest one leaves it, and its cost is
 * kept as a floor of the worst (never lower: it may still be alive). */
static void dwell_lua_keep(dwell_lua_limits *limits, void *block, long long cost) {
  if (limits->costly_count < DWELL_LUA_COSTLY) {
    limits->costly[limits->costly_count].block = block;
    limits->costly[limits->costly_count].cost = cost;
    limits->costly_count++;
  } else {
    int cheapest = 0;
    for (int i = 1; i < DWELL_LUA_COSTLY; i++)
      if (limits->costly[i].cost < limits->costly[cheapest].cost) cheapest = i;
    long long left = cost;
    if (limits->costly[cheapest].cost < cost) {
      left = limits->costly[cheapest].cost;
      limits->costly[cheapest].block = block;
      limits->costly[cheapest].cost = cost;
    }
    if (left > limits->evicted_cost) limits->evicted_cost = left;
  }
  dwell_lua_update_worst(limits);
}

/// Counts the bytes and NULs of the newest long string (written by now) and keeps it when
/// comparing it is costly; notes a string of too many NULs for the hook to refuse.
void dwell_lua_count_fresh(dwell_lua_limits *limits) {
  const char *bytes = (const char *)limits->fresh, *end = bytes + limits->fresh_size;
  void *block = limits->fresh;
  limits->fresh = NULL;
  /* The whole block, header included (a few zeros more): its layout is Lua's. memchr runs
   * at the C library's speed in any build; the count stops past the most NULs allowed. */
  long long nuls = 0;
  for (const char *at = bytes; at < end && nuls <= DWELL_LUA_STRING_NULS; nuls++) {
    at = memchr(at, 0, (size_t)(end - at));
    if (!at) break;
    at++;
  }
  long long size = (long long)limits->fresh_size;
  if (limits->enforce) limits->budget -= 1 + size / 32; /* the count, and the copy that made it */
  if (nuls > DWELL_LUA_STRING_NULS && limits->enforce && !limits->nuls) limits->nuls = nuls;
  long long cost = size / 4 + nuls * DWELL_LUA_NS_PER_NUL;
  if (cost >= DWELL_LUA_COSTLY_NS) dwell_lua_keep(limits, block, cost);
}

/// A long string was made in `block` (the allocator): its bytes are counted at the next
/// allocation or run of the hook, which runs at the next instruction while scripts run.
void dwell_lua_new_string(dwell_lua_limits *limits, void *block, size_t size) {
  if (limits->fresh) dwell_lua_count_fresh(limits);
  limits->fresh = block;
  limits->fresh_size = size;
  if (limits->enforce && limits->L && limits->step > 1 && !limits->charge_next) {
    /* lua_sethook may be called anywhere (it only sets counts and flags); the hook charges
     * the whole step at its next run, the instructions already run of it being unknown. */
    limits->charge_next = limits->step;
    lua_sethook(limits->L, dwell_lua_count_hook, LUA_MASKCOUNT, 1);
  }
}

/// A block of at least a long string's size is freed: it is no string to count or keep.
void dwell_lua_forget(dwell_lua_limits *limits, void *block) {
  if (limits->fresh == block) limits->fresh = NULL;
  for (int i = 0; i < limits->costly_count; i++) {
    if (limits->costly[i].block != block) continue;
    limits->costly[i] = limits->costly[--limits->costly_count];
    dwell_lua_update_worst(limits);
    return;
  }
}

/// The count hook's step while the strings alive are what they are: at most `base`, and
/// few enough instructions that comparing the costliest string in each takes about a
/// millisecond in all.
int dwell_lua_string_step(const dwell_lua_limits *limits, int base) {
  if (limits->worst_ns < DWELL_LUA_COSTLY_NS) return base;
  long long step = DWELL_LUA_STEP_NS / limits->worst_ns;
  if (step < 1) return 1;
  return step < base ? (int)step : base;
}
