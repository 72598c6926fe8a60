#ifndef DWELL_CLUA_SYSTEM_H
#define DWELL_CLUA_SYSTEM_H
/*
 * The system mode's header (module.modulemap makes the CLua module of it): the installed
 * Lua 5.4's headers, where Debian and Homebrew put them. The bundled mode uses
 * include/CLua.h instead. The sandbox's C is the CLuaSandbox target, in both modes.
 */
#if __has_include(<lua5.4/lua.h>)
#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>
#else
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#endif
#endif
