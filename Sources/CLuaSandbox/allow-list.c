/*
 * The sandbox's allow-list: what of Lua rule packs get, library by library. The prelude
 * builds each file's environment from it (dwell_lua_push_allow_list), and the messages
 * about names a pack cannot use offer its names (ScriptNames.swift reads dwell_lua_allow_list):
 * one list for both. The prelude replaces print, setmetatable and xpcall with bounded
 * versions of its own, and adds Dwell's helpers and `host`.
 */
#include "sandbox.h"

static const dwell_lua_allowed dwell_lua_allowed_names[] = {
    {"_G", "assert error getmetatable ipairs next pairs pcall print rawequal rawget rawlen select setmetatable "
           "tonumber tostring type xpcall _VERSION"},
    {"string", "byte char find format gmatch gsub len lower match rep reverse sub upper"},
    {"table", "concat insert move pack remove sort unpack"},
    {"math", "abs acos asin atan ceil cos exp floor fmod huge log max maxinteger min mininteger modf pi random "
             "randomseed sin sqrt tan tointeger type ult"},
    {"utf8", "char charpattern codepoint codes len offset"},
};

const dwell_lua_allowed *dwell_lua_allow_list(size_t *count) {
  *count = sizeof dwell_lua_allowed_names / sizeof dwell_lua_allowed_names[0];
  return dwell_lua_allowed_names;
}

void dwell_lua_push_allow_list(lua_State *L) {
  size_t count = 0;
  const dwell_lua_allowed *list = dwell_lua_allow_list(&count);
  lua_createtable(L, 0, (int)count);
  for (size_t i = 0; i < count; i++) {
    lua_pushstring(L, list[i].names);
    lua_setfield(L, -2, list[i].library);
  }
}
