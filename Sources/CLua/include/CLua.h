/*
 * The bundled mode's umbrella header (SwiftPM makes the CLua module of it): Lua 5.4 from the
 * sources in ../lua, the git submodule or what scripts/fetch-lua laid out there (through the
 * forwarding headers beside this one), then the shim. Lua's headers come first, so the
 * shim's own includes find them already included (their guards) even where a system Lua is
 * installed too. The system mode uses ../module.modulemap instead.
 */
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "../shim.h"
