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
#include <stdio.h>
#include <time.h>
#include <limits.h>
#include <ctype.h>

/*
 * The C side of Dwell's Lua sandbox, and the one header of the CLua module: wrappers for
 * the Lua C API macros Swift cannot import (here), plus the pieces that must be C so that
 * Lua's error handling (longjmp) never unwinds a Swift frame, one concern a header:
 *  - shim-budget.h: the limits, the allocator (memory cap) and the count hook (budget);
 *  - shim-calls.h: the trampoline through which Lua calls Swift host functions (a Swift
 *    function returns DWELL_LUA_RAISE with an error message on the stack, and the C
 *    trampoline raises it after the Swift frame is gone), and the calls into scripts;
 *  - match.h, match-library.h: Lua patterns with every matching step charged;
 *  - shim-libraries.h: the other library functions bounded by the work they do.
 */

#include "shim-budget.h"
#include "shim-calls.h"

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

/* Text handed to Lua's parser a line at a time, so that an error it raises without a place
 * can be placed at the line it was reading: a C stack overflow (code nested too deeply, in
 * Lua 5.4 raised without chunkname:line:) or running out of memory. */
typedef struct dwell_lua_lines {
  const char *text;
  size_t length, offset;
  int line; /* the line handed out last (1 is the first), as Lua counts lines */
} dwell_lua_lines;

static const char *dwell_lua_read_line(lua_State *L, void *data, size_t *size) {
  (void)L;
  dwell_lua_lines *lines = (dwell_lua_lines *)data;
  size_t start = lines->offset, end = start;
  /* A line ends at \n, \r, \r\n or \n\r, as Lua's lexer counts them. */
  while (end < lines->length && lines->text[end] != '\n' && lines->text[end] != '\r') end++;
  if (end < lines->length) {
    char first = lines->text[end++];
    if (end < lines->length && (lines->text[end] == '\n' || lines->text[end] == '\r') && lines->text[end] != first)
      end++;
  }
  *size = end - start;
  if (end == start) return NULL;
  lines->offset = end;
  lines->line++;
  return lines->text + start;
}

/// Loads a text chunk (never a binary one) of `length` bytes, NULs included; `line` is set to
/// the line the parser was reading when it stopped (the last line on success).
static inline int dwell_lua_loadtext(lua_State *L, const char *text, size_t length, const char *chunkname, int *line) {
  dwell_lua_lines lines = {text, length, 0, 0};
  int status = lua_load(L, dwell_lua_read_line, &lines, chunkname, "t");
  *line = lines.line;
  return status;
}
static inline int dwell_lua_ok(void) { return LUA_OK; }
static inline void **dwell_lua_extraspace(lua_State *L) { return (void **)lua_getextraspace(L); }
static inline int dwell_lua_errmem(void) { return LUA_ERRMEM; }

#include "match.h"
#include "match-library.h"
#include "shim-libraries.h"
#endif
