/*
 * Library functions bounded by the work they do, and caught errors charged (pcall, xpcall).
 */
#include "sandbox.h"

/* ---- Library functions bounded by the work they do ---------------------------------
 * Each wraps the library's own C function: it charges the work the call is about to do
 * (bytes or elements it goes through) to the budget, then runs the original in the same
 * call frame, so argument errors and positions read as before; pcall and xpcall are charged
 * after, for an error they caught. */

enum { DWELL_BYTES, DWELL_REP, DWELL_RANGE_LEN, DWELL_MOVE, DWELL_ARGS, DWELL_SORT, DWELL_LEN_SHIFT, DWELL_CAUGHT };

/* Raising an error and catching it (the message with its position, the unwinding to the
 * protected call) takes about a hundred instructions' time that the count hook never sees:
 * measured with Lua 5.4 here, ~280 ns for `pcall(error, 'x')` and ~780 ns for a runtime
 * error caught by pcall, against ~2.7 ns an instruction. A script catching errors in a
 * loop is charged for each, so the budget bounds it as it bounds other work. */
enum { DWELL_LUA_CAUGHT_ERROR_WORK = 100 };

/* The table functions read a table's length and elements through its metamethods, and read
 * the length again after the wrapper charged it: a __len that answers 1 to the charge and
 * 2^40 to the function (or an __index/__newindex that is a C function, which no count sees)
 * makes them loop in C for ever. So they take only tables without those metamethods: the
 * length the charge reads is the raw one, the one the function reads after it. */
static void dwell_lua_refuse_metamethods(lua_State *L, int index, const char *name) {
  if (lua_type(L, index) != LUA_TTABLE || !lua_getmetatable(L, index)) return;
  static const char *const fields[] = {"__len", "__index", "__newindex"};
  for (int i = 0; i < 3; i++) {
    lua_pushstring(L, fields[i]);
    int type = lua_rawget(L, -2);
    lua_pop(L, 1);
    if (type != LUA_TNIL) {
      lua_pop(L, 1);
      luaL_error(L, "table.%s: takes no table with a %s metamethod (sandbox): use a plain table", name, fields[i]);
    }
  }
  lua_pop(L, 1);
}

static long long dwell_lua_len_of(lua_State *L, int index) {
  if (!lua_istable(L, index)) return 0;
  return (long long)lua_rawlen(L, index); /* no metamethod left to answer otherwise */
}

static long long dwell_lua_opt(lua_State *L, int index, long long otherwise) {
  int ok = 0;
  lua_Integer value = lua_tointegerx(L, index, &ok); /* floats with an integer value too, as the originals */
  return ok ? (long long)value : otherwise;
}

static long long dwell_lua_span(long long from, long long to) {
  if (to < from) return 0;
  if (from < 0 && to > LLONG_MAX + from) return LLONG_MAX;
  return to - from + 1;
}

/* The bytes table.concat(t, sep, from, ...) copies for `count` elements (already charged
 * per element): each string's, a number's at most 44, and the separator's between them. The
 * table has no __index (refused), so its elements are read raw, as concat reads them. */
static long long dwell_lua_concat_bytes(lua_State *L, long long from, long long count) {
  if (lua_type(L, 1) != LUA_TTABLE || count <= 0) return 0;
  size_t sep = 0;
  if (lua_type(L, 2) == LUA_TSTRING) lua_tolstring(L, 2, &sep);
  if (count > LLONG_MAX / 2 / ((long long)sep + 45)) return LLONG_MAX;
  long long bytes = (long long)sep * (count - 1);
  for (long long i = 0; i < count; i++) {
    int type = lua_rawgeti(L, 1, (lua_Integer)(from + i));
    bytes += type == LUA_TSTRING ? (long long)lua_rawlen(L, -1) : 44;
    lua_pop(L, 1);
  }
  return bytes;
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

/* A C comparator (rawequal, math.ult...) given to table.sort, charged per comparison: its
 * calls run no instruction, so without this the count and the clock never see them. */
static int dwell_lua_charged_compare(lua_State *L) {
  long long work = 1;
  size_t a = 0, b = 0;
  if (lua_type(L, 1) == LUA_TSTRING && lua_type(L, 2) == LUA_TSTRING) {
    lua_tolstring(L, 1, &a);
    lua_tolstring(L, 2, &b);
    work += (long long)((a < b ? a : b) / 8);
  }
  dwell_lua_charge(L, work);
  lua_settop(L, 2);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, 2, 1);
  return 1;
}

static int dwell_lua_bounded(lua_State *L) {
  lua_CFunction original = (lua_CFunction)lua_touserdata(L, lua_upvalueindex(1));
  int kind = (int)lua_tointeger(L, lua_upvalueindex(2));
  if (kind == DWELL_CAUGHT) { /* pcall, xpcall: charged after the call, for an error they caught */
    int results = original(L);
    if (results > 0 && !lua_toboolean(L, -results)) dwell_lua_charge(L, DWELL_LUA_CAUGHT_ERROR_WORK);
    return results;
  }
  long long work = 1;
  size_t length = 0;
  if (kind == DWELL_RANGE_LEN || kind == DWELL_MOVE || kind == DWELL_SORT || kind == DWELL_LEN_SHIFT) {
    const char *name = lua_tostring(L, lua_upvalueindex(4));
    dwell_lua_refuse_metamethods(L, 1, name);
    if (kind == DWELL_MOVE) dwell_lua_refuse_metamethods(L, 5, name);
  }
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
    } else if (lua_toboolean(L, lua_upvalueindex(3))) { /* table.concat: its elements, then their bytes */
      long long from = dwell_lua_opt(L, 3, 1), to = lua_isnoneornil(L, 4) ? dwell_lua_len_of(L, 1) : dwell_lua_opt(L, 4, 0);
      work = dwell_lua_span(from, to);
      dwell_lua_charge(L, work < 1 ? 1 : work);
      work = dwell_lua_concat_bytes(L, from, work) / 8;
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
    } else if (lua_iscfunction(L, 2)) {
      lua_settop(L, 2);
      lua_pushcclosure(L, dwell_lua_charged_compare, 1);
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
    lua_pushstring(L, name);
    lua_pushcclosure(L, dwell_lua_bounded, 4);
    lua_setfield(L, -2, name);
  }
  lua_pop(L, 1);
}

/// Wraps the library functions whose C loops run long in one call (before scripts run).
void dwell_lua_bound_libraries(lua_State *L) {
  dwell_lua_bound_patterns(L);
  static const struct {
    const char *table, *name;
    int kind, flag;
  } bounded[] = {
      {"_G", "pcall", DWELL_CAUGHT, 0},        {"_G", "xpcall", DWELL_CAUGHT, 0},
      {"string", "upper", DWELL_BYTES, 0},     {"string", "lower", DWELL_BYTES, 0},
      {"string", "reverse", DWELL_BYTES, 0},   {"string", "sub", DWELL_BYTES, 0},
      {"string", "format", DWELL_BYTES, 0},    {"string", "byte", DWELL_BYTES, 0},
      {"utf8", "len", DWELL_BYTES, 0},         {"utf8", "offset", DWELL_BYTES, 0},
      {"_G", "tonumber", DWELL_BYTES, 0},      {"_G", "tostring", DWELL_BYTES, 0},
      {"string", "rep", DWELL_REP, 0},         {"table", "concat", DWELL_RANGE_LEN, 1},
      {"table", "unpack", DWELL_RANGE_LEN, 0}, {"utf8", "codepoint", DWELL_RANGE_LEN, 0},
      {"table", "move", DWELL_MOVE, 0},        {"table", "sort", DWELL_SORT, 0},
      {"table", "insert", DWELL_LEN_SHIFT, 0}, {"table", "remove", DWELL_LEN_SHIFT, 0},
      {"string", "char", DWELL_ARGS, 0},       {"utf8", "char", DWELL_ARGS, 0},
      {"table", "pack", DWELL_ARGS, 0},
  };
  for (size_t i = 0; i < sizeof bounded / sizeof bounded[0]; i++)
    dwell_lua_bound(L, bounded[i].table, bounded[i].name, bounded[i].kind, bounded[i].flag);
}

static int dwell_lua_rawset_k(lua_State *L) {
  lua_rawset(L, 1);
  return 0;
}

/// Pops a table, a key and a value and sets the field raw, in a protected call: an error
/// (memory) is returned as a status with its message on the stack, never raised.
int dwell_lua_protected_rawset(lua_State *L) {
  lua_pushcfunction(L, dwell_lua_rawset_k);
  lua_insert(L, -4);
  return lua_pcall(L, 3, 0, 0);
}
