/*
 * Lua patterns (string.find, match, gmatch, gsub) with every step charged to the call's
 * budget: a backtracking pattern on a long subject runs out of budget instead of running
 * for hours inside one instruction. This is the matcher; match-library.c has the library
 * functions on it.
 */
#include "match.h"

static const char *dwell_class_end(dwell_match *m, const char *p) {
  if (*p == '%') {
    if (p + 1 >= m->p_end) luaL_error(m->L, "malformed pattern (ends with '%%')");
    return p + 2;
  }
  if (*p == '[') {
    p++;
    if (p < m->p_end && *p == '^') p++;
    do { /* the first ']' after '[' or '[^' is a member */
      if (p >= m->p_end) luaL_error(m->L, "malformed pattern (missing ']')");
      if (*p++ == '%' && p < m->p_end) p++;
    } while (p >= m->p_end || *p != ']');
    return p + 1;
  }
  return p + 1;
}

static int dwell_class_matches(int c, int cl) {
  int res;
  switch (tolower(cl)) {
  case 'a': res = isalpha(c); break;
  case 'c': res = iscntrl(c); break;
  case 'd': res = isdigit(c); break;
  case 'g': res = isgraph(c); break;
  case 'l': res = islower(c); break;
  case 'p': res = ispunct(c); break;
  case 's': res = isspace(c); break;
  case 'u': res = isupper(c); break;
  case 'w': res = isalnum(c); break;
  case 'x': res = isxdigit(c); break;
  default: return cl == c;
  }
  if (isupper(cl)) res = !res;
  return res != 0;
}

/* `p` is at '[', `ec` at the closing ']'. */
static int dwell_bracket_matches(dwell_match *m, int c, const char *p, const char *ec) {
  int sig = 1;
  if (*(p + 1) == '^') {
    sig = 0;
    p++;
  }
  while (++p < ec) {
    dwell_match_step(m, 1);
    if (*p == '%') {
      p++;
      if (dwell_class_matches(c, (unsigned char)*p)) return sig;
    } else if (*(p + 1) == '-' && p + 2 < ec) {
      p += 2;
      if ((unsigned char)*(p - 2) <= c && c <= (unsigned char)*p) return sig;
    } else if ((unsigned char)*p == c) {
      return sig;
    }
  }
  return !sig;
}

static int dwell_single_matches(dwell_match *m, const char *s, const char *p, const char *ep) {
  if (s >= m->src_end) return 0;
  int c = (unsigned char)*s;
  switch (*p) {
  case '.': return 1;
  case '%': return dwell_class_matches(c, (unsigned char)*(p + 1));
  case '[': return dwell_bracket_matches(m, c, p, ep - 1);
  default: return (unsigned char)*p == c;
  }
}

static const char *dwell_max_expand(dwell_match *m, const char *s, const char *p, const char *ep) {
  ptrdiff_t i = 0;
  while (dwell_single_matches(m, s + i, p, ep)) {
    i++;
    dwell_match_step(m, 1);
  }
  while (i >= 0) { /* try the longest run first, then shorter ones */
    const char *res = dwell_match_here(m, s + i, ep + 1);
    if (res) return res;
    i--;
  }
  return NULL;
}

static const char *dwell_min_expand(dwell_match *m, const char *s, const char *p, const char *ep) {
  for (;;) {
    const char *res = dwell_match_here(m, s, ep + 1);
    if (res) return res;
    if (!dwell_single_matches(m, s, p, ep)) return NULL;
    s++;
  }
}

static const char *dwell_start_capture(dwell_match *m, const char *s, const char *p, int what) {
  if (m->level >= DWELL_MATCH_CAPTURES) luaL_error(m->L, "too many captures");
  m->capture[m->level].init = s;
  m->capture[m->level].len = what;
  m->level++;
  const char *res = dwell_match_here(m, s, p);
  if (!res) m->level--;
  return res;
}

static const char *dwell_end_capture(dwell_match *m, const char *s, const char *p) {
  int l = -1;
  for (int i = m->level - 1; i >= 0; i--)
    if (m->capture[i].len == DWELL_CAP_UNFINISHED) {
      l = i;
      break;
    }
  if (l < 0) luaL_error(m->L, "invalid pattern capture");
  m->capture[l].len = s - m->capture[l].init;
  const char *res = dwell_match_here(m, s, p);
  if (!res) m->capture[l].len = DWELL_CAP_UNFINISHED;
  return res;
}

static int dwell_capture_index(dwell_match *m, int c) {
  int l = c - '1';
  if (l < 0 || l >= m->level || m->capture[l].len == DWELL_CAP_UNFINISHED)
    return luaL_error(m->L, "invalid capture index %%%d", l + 1);
  return l;
}

const char *dwell_match_here(dwell_match *m, const char *s, const char *p) {
  if (m->depth-- == 0) luaL_error(m->L, "pattern too complex");
  for (;;) {
    dwell_match_step(m, 1);
    if (p == m->p_end) break;
    if (*p == '(') {
      s = p + 1 < m->p_end && *(p + 1) == ')' ? dwell_start_capture(m, s, p + 2, DWELL_CAP_POSITION)
                                               : dwell_start_capture(m, s, p + 1, DWELL_CAP_UNFINISHED);
      break;
    }
    if (*p == ')') {
      s = dwell_end_capture(m, s, p + 1);
      break;
    }
    if (*p == '$' && p + 1 == m->p_end) {
      if (s != m->src_end) s = NULL;
      break;
    }
    if (*p == '%' && p + 1 < m->p_end && *(p + 1) == 'b') {
      if (p + 3 >= m->p_end) luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
      if (s >= m->src_end || *s != *(p + 2)) {
        s = NULL;
        break;
      }
      int open = *(p + 2), close = *(p + 3), depth = 1;
      const char *t = s;
      while (++t < m->src_end) {
        dwell_match_step(m, 1);
        if (*t == close) {
          if (--depth == 0) break;
        } else if (*t == open) {
          depth++;
        }
      }
      if (t >= m->src_end) {
        s = NULL;
        break;
      }
      s = t + 1;
      p += 4;
      continue;
    }
    if (*p == '%' && p + 1 < m->p_end && *(p + 1) == 'f') {
      p += 2;
      if (p >= m->p_end || *p != '[') luaL_error(m->L, "missing '[' after '%%f' in pattern");
      const char *ep = dwell_class_end(m, p);
      int previous = s == m->src_init ? 0 : (unsigned char)*(s - 1);
      int current = s < m->src_end ? (unsigned char)*s : 0;
      if (!dwell_bracket_matches(m, previous, p, ep - 1) && dwell_bracket_matches(m, current, p, ep - 1)) {
        p = ep;
        continue;
      }
      s = NULL;
      break;
    }
    if (*p == '%' && p + 1 < m->p_end && isdigit((unsigned char)*(p + 1))) {
      int l = dwell_capture_index(m, (unsigned char)*(p + 1));
      ptrdiff_t captured = m->capture[l].len; /* a position capture matches nothing */
      size_t len = captured < 0 ? 0 : (size_t)captured;
      dwell_match_step(m, (long long)(len / 8));
      if (captured >= 0 && (size_t)(m->src_end - s) >= len && memcmp(m->capture[l].init, s, len) == 0) {
        s += len;
        p += 2;
        continue;
      }
      s = NULL;
      break;
    }
    const char *ep = dwell_class_end(m, p);
    int quantifier = ep < m->p_end ? *ep : 0;
    if (!dwell_single_matches(m, s, p, ep)) {
      if (quantifier == '*' || quantifier == '?' || quantifier == '-') {
        p = ep + 1;
        continue;
      }
      s = NULL;
      break;
    }
    if (quantifier == '?') {
      const char *res = dwell_match_here(m, s + 1, ep + 1);
      if (res) {
        s = res;
        break;
      }
      p = ep + 1;
      continue;
    }
    if (quantifier == '+') {
      s = dwell_max_expand(m, s + 1, p, ep);
      break;
    }
    if (quantifier == '*') {
      s = dwell_max_expand(m, s, p, ep);
      break;
    }
    if (quantifier == '-') {
      s = dwell_min_expand(m, s, p, ep);
      break;
    }
    s++;
    p = ep;
  }
  m->depth++;
  return s;
}

void dwell_match_reset(dwell_match *m) {
  m->level = 0;
  m->depth = DWELL_MATCH_DEPTH;
}

/* Pushes capture `i` (the whole match s..e when there are none). */
void dwell_push_capture(dwell_match *m, int i, const char *s, const char *e) {
  if (i >= m->level) {
    if (i != 0) luaL_error(m->L, "invalid capture index %%%d", i + 1);
    lua_pushlstring(m->L, s, (size_t)(e - s));
    return;
  }
  ptrdiff_t len = m->capture[i].len;
  if (len == DWELL_CAP_UNFINISHED) luaL_error(m->L, "unfinished capture");
  if (len == DWELL_CAP_POSITION)
    lua_pushinteger(m->L, (lua_Integer)(m->capture[i].init - m->src_init) + 1);
  else
    lua_pushlstring(m->L, m->capture[i].init, (size_t)len);
}

int dwell_push_captures(dwell_match *m, const char *s, const char *e) {
  int n = (m->level == 0 && s) ? 1 : m->level;
  luaL_checkstack(m->L, n, "too many captures");
  for (int i = 0; i < n; i++) dwell_push_capture(m, i, s, e);
  return n;
}

size_t dwell_start_position(lua_Integer pos, size_t len) {
  if (pos > 0) return (size_t)pos;
  if (pos == 0) return 1;
  if (pos < -(lua_Integer)len) return 1;
  return len + (size_t)pos + 1;
}

void dwell_match_init(dwell_match *m, lua_State *L, const char *s, size_t ls, const char *p, size_t lp) {
  m->L = L;
  m->src_init = s;
  m->src_end = s + ls;
  m->p_end = p + lp;
  m->steps = 0;
  dwell_match_reset(m);
}
