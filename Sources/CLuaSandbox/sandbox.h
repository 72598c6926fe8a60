#ifndef DWELL_SANDBOX_H
#define DWELL_SANDBOX_H
/*
 * What the sandbox's .c files share and Swift does not call: the public header, the C
 * library, and the functions one file defines for the others. Internal to the target.
 */
#include "CLuaSandbox.h"
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* budget.c */
void dwell_lua_where(lua_State *L, char *buffer, size_t size);
void *dwell_lua_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
dwell_lua_limits *dwell_lua_limits_of(lua_State *L);
void dwell_lua_count_hook(lua_State *L, lua_Debug *ar);
void dwell_lua_charge(lua_State *L, long long work);
long long dwell_lua_arm(lua_State *L, dwell_lua_limits *limits, long long allowance, int per_tick,
                        long long time_limit_ms);

void dwell_lua_refusal(dwell_lua_limits *limits);

/* strings.c */
void dwell_lua_count_fresh(dwell_lua_limits *limits);
void dwell_lua_new_string(dwell_lua_limits *limits, void *block, size_t size);
void dwell_lua_forget(dwell_lua_limits *limits, void *block);
int dwell_lua_string_step(const dwell_lua_limits *limits, int base);

/* calls.c */
int dwell_lua_locate(lua_State *L);
int dwell_lua_pcall(lua_State *L, dwell_lua_limits *limits, int nargs, int nresults);

/* match-library.c */
void dwell_lua_bound_patterns(lua_State *L);
#endif
