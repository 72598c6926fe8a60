/* Bundled mode: Lua's lua.h, as scripts/fetch-lua unpacked it. */
#include "../lua/src/lua.h"
