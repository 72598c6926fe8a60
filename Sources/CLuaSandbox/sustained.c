/*
 * The sustained budget of a pack: the host time its scripts take, averaged over app time.
 * Each call's cost fills a leaky bucket that app time drains at the pack's share of one
 * core; while the bucket is full the pack's checks and plugins wait (throttled) until it is
 * half empty, and a pack that spent a whole window of app time waiting is stopped for good.
 * The tools bound the total host time too (a simulated year drains the bucket far faster
 * than anyone waits). Arithmetic only: this runs at every call and tick.
 */
#include "sandbox.h"

/* Host time the bucket holds: the share of one core over the window. */
static long long dwell_lua_capacity(const dwell_lua_limits *limits) {
  long long window = limits->sustained_window_ns;
  /* window <= 1 day and ppm <= 1e6: the product stays far below LLONG_MAX once split */
  return (window / 1000000) * limits->sustained_ppm + (window % 1000000) * limits->sustained_ppm / 1000000;
}

void dwell_lua_spend(dwell_lua_limits *limits, long long work, long long host_ns) {
  long long nominal = work > 0 && work < LLONG_MAX / DWELL_LUA_NS_PER_UNIT ? work * DWELL_LUA_NS_PER_UNIT : 0;
  long long cost = host_ns > nominal ? host_ns : nominal;
  if (cost <= 0) return;
  limits->total_ns = limits->total_ns > LLONG_MAX - cost ? LLONG_MAX : limits->total_ns + cost;
  if (limits->total_limit_ns > 0 && limits->total_ns >= limits->total_limit_ns && !limits->stopped)
    limits->stopped = 2;
  if (limits->sustained_ppm <= 0) return;
  long long capacity = dwell_lua_capacity(limits);
  limits->level_ns = limits->level_ns > LLONG_MAX - cost ? LLONG_MAX : limits->level_ns + cost;
  if (limits->level_ns >= capacity) limits->throttled = 1;
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
  if (!limits->throttled) return;
  limits->throttled_ns += elapsed;
  if (limits->throttled_ns >= window && !limits->stopped) limits->stopped = 1;
  if (limits->level_ns <= dwell_lua_capacity(limits) / 2) limits->throttled = 0;
}
