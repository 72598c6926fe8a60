/* Bundled mode: Lua's lualib.h, from the submodule or scripts/fetch-lua. */
#include "../lua/lualib.h"
