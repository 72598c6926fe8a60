#ifndef DWELL_CLUA_SHIM_H
#define DWELL_CLUA_SHIM_H
#if __has_include(<lua5.4/lua.h>)
#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>
#else
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#endif
#include <stdlib.h>
#include <string.h>

/*
 * Wrappers for the Lua C API macros Swift cannot import, plus three pieces that must be
 * C so that Lua's error handling (longjmp) never unwinds a Swift frame:
 *  - the allocator, which enforces the memory cap;
 *  - the count hook, which enforces the instruction budget;
 *  - the trampoline through which Lua calls Swift host functions: a Swift function
 *    returns DWELL_LUA_RAISE with an error message on the stack, and the C trampoline
 *    raises it after the Swift frame is gone.
 */

/// Per-state limits, owned by the Swift side and reachable from the state's extra space.
typedef struct dwell_lua_limits {
  size_t used;           /* bytes allocated now */
  size_t peak;           /* most bytes ever allocated */
  size_t limit;          /* cap while script code runs */
  int enforce;           /* 1 while script code runs, 0 while the host works */
  long long budget;      /* instructions left for the current call */
  long long per_call;    /* instructions allowed for one call */
  int exhausted;         /* set when the budget ran out */
} dwell_lua_limits;

#define DWELL_LUA_RAISE (-1)
#define DWELL_LUA_HOOK_STEP 1000

static void *dwell_lua_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  dwell_lua_limits *limits = (dwell_lua_limits *)ud;
  size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    free(ptr);
    limits->used -= old;
    return NULL;
  }
  if (limits->enforce && nsize > old && limits->used - old + nsize > limits->limit) return NULL;
  void *block = realloc(ptr, nsize);
  if (block) {
    limits->used = limits->used - old + nsize;
    if (limits->used > limits->peak) limits->peak = limits->used;
  }
  return block;
}

static inline dwell_lua_limits *dwell_lua_limits_of(lua_State *L) {
  void *ud = NULL;
  lua_getallocf(L, &ud);
  return (dwell_lua_limits *)ud;
}

static void dwell_lua_count_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  dwell_lua_limits *limits = dwell_lua_limits_of(L);
  limits->budget -= DWELL_LUA_HOOK_STEP;
  if (limits->budget < 0) {
    limits->exhausted = 1;
    luaL_error(L, "instruction budget exceeded (%I instructions)", (lua_Integer)limits->per_call);
  }
}

static inline lua_State *dwell_lua_newstate(dwell_lua_limits *limits) {
  lua_State *L = lua_newstate(dwell_lua_alloc, limits);
  if (L) lua_sethook(L, dwell_lua_count_hook, LUA_MASKCOUNT, DWELL_LUA_HOOK_STEP);
  return L;
}

typedef int (*dwell_lua_host_function)(lua_State *L);

static int dwell_lua_trampoline(lua_State *L) {
  dwell_lua_host_function fn = (dwell_lua_host_function)lua_touserdata(L, lua_upvalueindex(1));
  dwell_lua_limits *limits = dwell_lua_limits_of(L);
  int enforce = limits->enforce;
  limits->enforce = 0;
  int results = fn(L);
  limits->enforce = enforce;
  if (results == DWELL_LUA_RAISE) return lua_error(L);
  return results;
}

/// Pushes a host function, with `upvalues` values already on the stack as its upvalues 2...
static inline void dwell_lua_pushhost(lua_State *L, dwell_lua_host_function fn, int upvalues) {
  lua_pushlightuserdata(L, (void *)fn);
  lua_insert(L, -(upvalues + 1));
  lua_pushcclosure(L, dwell_lua_trampoline, upvalues + 1);
}

static inline int dwell_lua_pcall(lua_State *L, int nargs, int nresults, int msgh) {
  return lua_pcall(L, nargs, nresults, msgh);
}
static inline void dwell_lua_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void dwell_lua_newtable(lua_State *L) { lua_newtable(L); }
static inline const char *dwell_lua_tostring(lua_State *L, int i) { return lua_tostring(L, i); }
static inline lua_Number dwell_lua_tonumber(lua_State *L, int i) { return lua_tonumber(L, i); }
static inline int dwell_lua_isfunction(lua_State *L, int i) { return lua_isfunction(L, i); }
static inline int dwell_lua_istable(lua_State *L, int i) { return lua_istable(L, i); }
static inline int dwell_lua_isnil(lua_State *L, int i) { return lua_isnil(L, i); }
static inline void dwell_lua_insert(lua_State *L, int i) { lua_insert(L, i); }
static inline void dwell_lua_remove(lua_State *L, int i) { lua_remove(L, i); }
static inline int dwell_lua_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline int dwell_lua_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int dwell_lua_loadtext(lua_State *L, const char *text, size_t length, const char *chunkname) {
  return luaL_loadbufferx(L, text, length, chunkname, "t");
}
static inline int dwell_lua_ok(void) { return LUA_OK; }
static inline void **dwell_lua_extraspace(lua_State *L) { return (void **)lua_getextraspace(L); }
static inline int dwell_lua_errmem(void) { return LUA_ERRMEM; }
#endif
