/* Bundled mode: Lua's lua.h, from the submodule or scripts/fetch-lua. */
#include "../lua/lua.h"
