#ifndef DWELL_SANDBOX_MATCH_H
#define DWELL_SANDBOX_MATCH_H
/*
 * The charged matcher's state and the functions match-library.c calls (match.c has them);
 * internal to the target.
 */
#include "sandbox.h"

#define DWELL_MATCH_CAPTURES 32
#define DWELL_CAP_UNFINISHED (-1)
#define DWELL_CAP_POSITION (-2)
#define DWELL_MATCH_DEPTH 200
#define DWELL_MATCH_CHUNK 1024

typedef struct dwell_match {
  const char *src_init, *src_end, *p_end;
  lua_State *L;
  int level, depth;
  long long steps;
  struct { const char *init; ptrdiff_t len; } capture[DWELL_MATCH_CAPTURES];
} dwell_match;

/* One step of work; every DWELL_MATCH_CHUNK steps are charged to the budget. */
static inline void dwell_match_step(dwell_match *m, long long n) {
  m->steps += n;
  if (m->steps >= DWELL_MATCH_CHUNK) {
    long long chunk = m->steps;
    m->steps = 0;
    dwell_lua_charge(m->L, chunk);
  }
}

const char *dwell_match_here(dwell_match *m, const char *s, const char *p);
void dwell_match_reset(dwell_match *m);
void dwell_push_capture(dwell_match *m, int i, const char *s, const char *e);
int dwell_push_captures(dwell_match *m, const char *s, const char *e);
size_t dwell_start_position(lua_Integer pos, size_t len);
void dwell_match_init(dwell_match *m, lua_State *L, const char *s, size_t ls, const char *p, size_t lp);
#endif
