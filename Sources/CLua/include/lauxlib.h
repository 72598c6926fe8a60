/* Bundled mode: Lua's lauxlib.h, from the submodule or scripts/fetch-lua. */
#include "../lua/lauxlib.h"
