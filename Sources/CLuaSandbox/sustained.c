/*
 * The sustained budget of a pack: the host time its scripts take (the processor time of the
 * thread that runs each call: waiting descheduled on a loaded machine is not the pack's),
 * averaged over app time.
 * Each call's cost fills a leaky bucket that app time drains at the pack's share of one
 * core; once the bucket is full the pack is throttled until it is half empty: its budget per
 * tick is cut to its share of a second (so a check or plugin over its part of that is
 * disabled as the tick's budget disables it, and the cheap ones go on), and a pack that
 * stayed throttled a whole window of app time is stopped (the host disables the heaviest).
 * The tools bound the total host time too (a simulated year drains the bucket far faster
 * than anyone waits): past it the pack stays throttled, to a hundredth of its tick budget. Arithmetic only: this runs at every call and tick.
 */
#include "sandbox.h"

/* Host time the bucket holds: the share of one core over the window. */
static long long dwell_lua_capacity(const dwell_lua_limits *limits) {
  long long window = limits->sustained_window_ns;
  /* window <= 1 day and ppm <= 1e6: the product stays far below LLONG_MAX once split */
  return (window / 1000000) * limits->sustained_ppm + (window % 1000000) * limits->sustained_ppm / 1000000;
}

/* Throttles the pack (`on`) or ends it: the tick's budget cut to the share of a second. */
static void dwell_lua_throttle(dwell_lua_limits *limits, int on) {
  if (limits->throttled == on) return;
  if (!limits->throttled) {
    limits->full_tick_work = limits->per_tick_work;
    limits->full_tick_ms = limits->tick_ms;
  }
  limits->throttled = on;
  if (on) {
    long long ns = limits->sustained_ppm * 1000; /* of each second */
    long long work = ns / DWELL_LUA_NS_PER_UNIT, ms = ns / 1000000;
    if (limits->over_total) { /* a hundredth of the pack's own, at least 1,000 units */
      work = limits->full_tick_work / 100 > 1000 ? limits->full_tick_work / 100 : 1000;
      ms = limits->full_tick_ms / 100;
    }
    if (work < limits->per_tick_work) limits->per_tick_work = work > 1 ? work : 1;
    if (ms < limits->tick_ms) limits->tick_ms = ms > 1 ? ms : 1;
  } else {
    limits->per_tick_work = limits->full_tick_work;
    limits->tick_ms = limits->full_tick_ms;
  }
}

void dwell_lua_unthrottle(dwell_lua_limits *limits) { dwell_lua_throttle(limits, 0); }

void dwell_lua_spend(dwell_lua_limits *limits, long long work, long long host_ns) {
  long long nominal = work > 0 && work < LLONG_MAX / DWELL_LUA_NS_PER_UNIT ? work * DWELL_LUA_NS_PER_UNIT : 0;
  long long cost = host_ns > nominal ? host_ns : nominal;
  if (cost <= 0) return;
  limits->total_ns = limits->total_ns > LLONG_MAX - cost ? LLONG_MAX : limits->total_ns + cost;
  if (limits->total_limit_ns > 0 && limits->total_ns >= limits->total_limit_ns && !limits->over_total) {
    dwell_lua_throttle(limits, 0);
    limits->over_total = 1; /* throttled for good, to a hundredth of the pack's own budget */
    dwell_lua_throttle(limits, 1);
  }
  if (limits->sustained_ppm <= 0) return;
  long long capacity = dwell_lua_capacity(limits);
  limits->level_ns = limits->level_ns > LLONG_MAX - cost ? LLONG_MAX : limits->level_ns + cost;
  if (limits->level_ns >= capacity) dwell_lua_throttle(limits, 1);
}

void dwell_lua_sustain(dwell_lua_limits *limits, long long instant) {
  if (limits->sustained_ppm <= 0 || limits->sustained_window_ns <= 0) return;
  long long last = limits->last_instant;
  limits->last_instant = instant;
  if (last == LLONG_MIN || instant <= last) return; /* the first instant, or the clock did not move */
  long long window = limits->sustained_window_ns;
  long long elapsed = instant - last > window ? window : instant - last; /* a window drains it all */
  long long drained = (elapsed / 1000000) * limits->sustained_ppm + (elapsed % 1000000) * limits->sustained_ppm / 1000000;
  limits->level_ns = limits->level_ns > drained ? limits->level_ns - drained : 0;
  if (!limits->throttled || limits->over_total) return;
  limits->throttled_ns += elapsed;
  if (limits->throttled_ns >= window && !limits->stopped) limits->stopped = 1;
  if (limits->level_ns <= dwell_lua_capacity(limits) / 2) dwell_lua_throttle(limits, 0);
}
