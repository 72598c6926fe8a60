/*
 * The bundled mode's umbrella header (SwiftPM makes the CLua module of it): Lua 5.4 from the
 * sources in ../lua, the git submodule or what scripts/fetch-lua laid out there, through the
 * forwarding headers beside this one. The system mode uses ../module.modulemap instead; the
 * sandbox's C is the CLuaSandbox target, which includes this header in the bundled mode.
 */
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
