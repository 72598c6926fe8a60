#ifndef DWELL_CLUA_MATCH_H
#define DWELL_CLUA_MATCH_H
/*
 * Lua patterns (string.find, match, gmatch, gsub) with every step charged to the call's
 * budget: a backtracking pattern on a long subject runs out of budget instead of running
 * for hours inside one instruction. Included by shim.h, after dwell_lua_charge; header only.
 */

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

static const char *dwell_match_here(dwell_match *m, const char *s, const char *p);

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

static const char *dwell_match_here(dwell_match *m, const char *s, const char *p) {
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

static void dwell_match_reset(dwell_match *m) {
  m->level = 0;
  m->depth = DWELL_MATCH_DEPTH;
}

/* Pushes capture `i` (the whole match s..e when there are none). */
static void dwell_push_capture(dwell_match *m, int i, const char *s, const char *e) {
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

static int dwell_push_captures(dwell_match *m, const char *s, const char *e) {
  int n = (m->level == 0 && s) ? 1 : m->level;
  luaL_checkstack(m->L, n, "too many captures");
  for (int i = 0; i < n; i++) dwell_push_capture(m, i, s, e);
  return n;
}

static size_t dwell_start_position(lua_Integer pos, size_t len) {
  if (pos > 0) return (size_t)pos;
  if (pos == 0) return 1;
  if (pos < -(lua_Integer)len) return 1;
  return len + (size_t)pos + 1;
}

static void dwell_match_init(dwell_match *m, lua_State *L, const char *s, size_t ls, const char *p, size_t lp) {
  m->L = L;
  m->src_init = s;
  m->src_end = s + ls;
  m->p_end = p + lp;
  m->steps = 0;
  dwell_match_reset(m);
}

static int dwell_find_aux(lua_State *L, int find) {
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  size_t init = dwell_start_position(luaL_optinteger(L, 3, 1), ls) - 1;
  if (init > ls) {
    luaL_pushfail(L);
    return 1;
  }
  dwell_match m;
  dwell_match_init(&m, L, s, ls, p, lp);
  int plain = 1;
  for (size_t i = 0; i < lp && plain; i++) plain = strchr("^$*+?.([%-", p[i]) == NULL || p[i] == 0;
  if (find && (lua_toboolean(L, 4) || plain)) {
    /* plain: each candidate costs a step and the bytes it compares */
    const char *at = s + init, *end = s + ls;
    if (lp == 0) {
      lua_pushinteger(L, (lua_Integer)init + 1);
      lua_pushinteger(L, (lua_Integer)init);
      return 2;
    }
    while (lp <= (size_t)(end - at)) {
      const char *hit = memchr(at, *p, (size_t)(end - at) - lp + 1);
      dwell_match_step(&m, 1 + (long long)((hit ? hit - at : end - at) / 16));
      if (!hit) break;
      dwell_match_step(&m, (long long)(lp / 8));
      if (memcmp(hit + 1, p + 1, lp - 1) == 0) {
        lua_pushinteger(L, (lua_Integer)(hit - s) + 1);
        lua_pushinteger(L, (lua_Integer)(hit - s + lp));
        return 2;
      }
      at = hit + 1;
    }
    luaL_pushfail(L);
    return 1;
  }
  const char *s1 = s + init;
  int anchor = lp > 0 && *p == '^';
  if (anchor) {
    p++;
    m.p_end = p + lp - 1;
  }
  do {
    dwell_match_reset(&m);
    const char *e = dwell_match_here(&m, s1, p);
    if (e) {
      if (find) {
        lua_pushinteger(L, (lua_Integer)(s1 - s) + 1);
        lua_pushinteger(L, (lua_Integer)(e - s));
        return dwell_push_captures(&m, NULL, 0) + 2;
      }
      return dwell_push_captures(&m, s1, e);
    }
  } while (s1++ < m.src_end && !anchor);
  luaL_pushfail(L);
  return 1;
}

static int dwell_str_find(lua_State *L) { return dwell_find_aux(L, 1); }
static int dwell_str_match(lua_State *L) { return dwell_find_aux(L, 0); }

/* gmatch's iterator: upvalues subject, pattern, next position, end of the last match. */
static int dwell_gmatch_next(lua_State *L) {
  size_t ls, lp;
  const char *s = lua_tolstring(L, lua_upvalueindex(1), &ls);
  const char *p = lua_tolstring(L, lua_upvalueindex(2), &lp);
  lua_Integer position = lua_tointeger(L, lua_upvalueindex(3));
  lua_Integer last = lua_tointeger(L, lua_upvalueindex(4));
  dwell_match m;
  dwell_match_init(&m, L, s, ls, p, lp);
  for (const char *src = s + position; src <= m.src_end; src++) {
    dwell_match_reset(&m);
    const char *e = dwell_match_here(&m, src, p);
    if (e && (last < 0 || e != s + last)) {
      lua_pushinteger(L, (lua_Integer)(e - s));
      lua_copy(L, -1, lua_upvalueindex(3));
      lua_copy(L, -1, lua_upvalueindex(4));
      lua_pop(L, 1);
      return dwell_push_captures(&m, src, e);
    }
  }
  lua_pushinteger(L, (lua_Integer)ls + 1);
  lua_copy(L, -1, lua_upvalueindex(3));
  lua_pop(L, 1);
  return 0;
}

static int dwell_str_gmatch(lua_State *L) {
  size_t ls;
  luaL_checklstring(L, 1, &ls);
  luaL_checkstring(L, 2);
  size_t init = dwell_start_position(luaL_optinteger(L, 3, 1), ls) - 1;
  if (init > ls) init = ls + 1;
  lua_settop(L, 2);
  lua_pushinteger(L, (lua_Integer)init);
  lua_pushinteger(L, -1);
  lua_pushcclosure(L, dwell_gmatch_next, 4);
  return 1;
}

static void dwell_gsub_string(dwell_match *m, luaL_Buffer *b, const char *s, const char *e) {
  size_t l;
  const char *news = lua_tolstring(m->L, 3, &l);
  dwell_match_step(m, 1 + (long long)l);
  for (size_t i = 0; i < l; i++) {
    if (news[i] != '%') {
      luaL_addchar(b, news[i]);
      continue;
    }
    i++;
    if (i < l && news[i] == '%') {
      luaL_addchar(b, '%');
    } else if (i < l && isdigit((unsigned char)news[i])) {
      if (news[i] == '0')
        luaL_addlstring(b, s, (size_t)(e - s));
      else {
        dwell_push_capture(m, news[i] - '1', s, e);
        luaL_tolstring(m->L, -1, NULL);
        lua_remove(m->L, -2);
        luaL_addvalue(b);
      }
    } else {
      luaL_error(m->L, "invalid use of '%%' in replacement string");
    }
  }
}

static void dwell_gsub_value(dwell_match *m, luaL_Buffer *b, const char *s, const char *e, int kind) {
  lua_State *L = m->L;
  if (kind == LUA_TFUNCTION) {
    lua_pushvalue(L, 3);
    int n = dwell_push_captures(m, s, e);
    lua_call(L, n, 1);
  } else if (kind == LUA_TTABLE) {
    dwell_push_capture(m, 0, s, e);
    lua_gettable(L, 3);
  } else {
    dwell_gsub_string(m, b, s, e);
    return;
  }
  if (!lua_toboolean(L, -1)) {
    lua_pop(L, 1);
    luaL_addlstring(b, s, (size_t)(e - s));
    return;
  }
  if (!lua_isstring(L, -1)) luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  luaL_addvalue(b);
}

static int dwell_str_gsub(lua_State *L) {
  size_t ls, lp;
  const char *src = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  const char *lastmatch = NULL;
  int kind = lua_type(L, 3);
  lua_Integer max_s = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
  luaL_argexpected(L, kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION || kind == LUA_TTABLE, 3,
                   "string/function/table");
  int anchor = lp > 0 && *p == '^';
  if (anchor) {
    p++;
    lp--;
  }
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  dwell_match m;
  dwell_match_init(&m, L, src, ls, p, lp);
  lua_Integer n = 0;
  while (n < max_s) {
    dwell_match_reset(&m);
    const char *e = dwell_match_here(&m, src, p);
    if (e && e != lastmatch) {
      n++;
      dwell_gsub_value(&m, &b, src, e, kind);
      src = lastmatch = e;
    } else if (src < m.src_end) {
      luaL_addchar(&b, *src++);
    } else {
      break;
    }
    if (anchor) break;
  }
  luaL_addlstring(&b, src, (size_t)(m.src_end - src));
  luaL_pushresult(&b);
  lua_pushinteger(L, n);
  return 2;
}

/// Puts the bounded pattern functions in place of the string library's.
static inline void dwell_lua_bound_patterns(lua_State *L) {
  if (lua_getglobal(L, "string") != LUA_TTABLE) {
    lua_pop(L, 1);
    return;
  }
  lua_pushcfunction(L, dwell_str_find);
  lua_setfield(L, -2, "find");
  lua_pushcfunction(L, dwell_str_match);
  lua_setfield(L, -2, "match");
  lua_pushcfunction(L, dwell_str_gmatch);
  lua_setfield(L, -2, "gmatch");
  lua_pushcfunction(L, dwell_str_gsub);
  lua_setfield(L, -2, "gsub");
  lua_pop(L, 1);
}
#endif
