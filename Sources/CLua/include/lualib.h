/* Bundled mode: Lua's lualib.h, as scripts/fetch-lua unpacked it. */
#include "../lua/src/lualib.h"
