/* Bundled mode: Lua's lauxlib.h, as scripts/fetch-lua unpacked it. */
#include "../lua/src/lauxlib.h"
