/*
 * string.find, match, gmatch and gsub on the charged matcher of match.c, and
 * dwell_lua_bound_patterns, which puts them in place of the string library's.
 */
#include "match.h"

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
void dwell_lua_bound_patterns(lua_State *L) {
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
