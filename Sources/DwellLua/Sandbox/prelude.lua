-- The prelude every rule pack runs first, in an environment scripts never see. It builds
-- the sandbox from the allow-list the host hands it (`allowed`: library = names, from the
-- sandbox's C, allow-list.c, which the messages about missing names read too; each file
-- gets its own environment over frozen library tables), wraps what must not escape the
-- budget, and keeps the plugins. It returns the functions the host calls (dispatch,
-- set_state and new_environment) and the plugins, whose states the host reads raw when it
-- saves them.
local limits, host, allowed = ...
local G = _G
local next, type, error, rawget, pcall, select, tostring = next, type, error, rawget, pcall, select, tostring
local setmetatable, getmetatable = setmetatable, getmetatable
local pack, unpack = table.pack, table.unpack
local subscribe, act = __dwell_subscribe, __dwell_action
local print, defining, touch = __dwell_print, __dwell_defining, __dwell_touch
__dwell_subscribe, __dwell_action, __dwell_print, __dwell_defining, __dwell_touch = nil, nil, nil, nil, nil
-- The rule language (`__dwell_unlock`, `__dwell_achievement`, `__dwell_levels`) is defined by
-- the host after this runs; it is looked up when a script calls it.

local function pick(from, names)
  local t = {}
  for name in names:gmatch("%S+") do t[name] = from[name] end
  return t
end

-- A read-only view of `t`: reads go through, writes raise, the table behind is unreachable.
-- With `onRead`, every read calls it first (`host`: a check that reads it changes with time).
local function freeze(t, name, onRead)
  local function refuse() error(name .. " is read-only", 2) end
  local function iterate()
    if onRead then onRead() end
    return function(_, k) return next(t, k) end, nil, nil
  end
  local index = t
  if onRead then index = function(_, k) onRead() return t[k] end end
  return setmetatable({}, { __index = index, __newindex = refuse, __pairs = iterate, __metatable = false })
end

local base = pick(G, allowed._G)
local libraries = {}
for library, names in next, allowed do
  if library ~= "_G" then
    libraries[library] = pick(G[library], names)
    base[library] = freeze(libraries[library], library)
  end
end
local string_meta = getmetatable("")
string_meta.__index = libraries.string
string_meta.__metatable = false
-- Arithmetic on strings converts them through these metamethods (Lua 5.4's string library):
-- a numeral of megabytes would be one instruction of milliseconds (strtod), so a numeral
-- converts only up to limits.numeral_length bytes.
for _, event in next, { "__add", "__sub", "__mul", "__div", "__mod", "__pow", "__unm", "__idiv" } do
  local arithmetic = string_meta[event]
  string_meta[event] = function(a, b)
    if (type(a) == "string" and #a > limits.numeral_length) or (type(b) == "string" and #b > limits.numeral_length) then
      error("arithmetic on a string of more than " .. limits.numeral_length
        .. " bytes (sandbox): a numeral is shorter", 2)
    end
    return arithmetic(a, b)
  end
end

base.print = print
base.host = freeze(host, "host", touch)

-- No finalizers (they would run outside any call's budget), no __close handlers, and no
-- weak tables (an ephemeron chain makes every collection quadratic, work no call is charged).
function base.setmetatable(t, meta)
  if type(meta) == "table" and (rawget(meta, "__gc") ~= nil or rawget(meta, "__close") ~= nil) then
    error("setmetatable: __gc and __close are not allowed in rule packs (sandbox)", 2)
  end
  if type(meta) == "table" and rawget(meta, "__mode") ~= nil then
    error("setmetatable: __mode (weak tables) is not allowed in rule packs (sandbox)", 2)
  end
  local ok, result = pcall(setmetatable, t, meta)
  if not ok then error("setmetatable: " .. tostring(result), 2) end -- at the caller's line
  return result
end

-- The message handler runs after the error unwound, under the budget like any code.
function base.xpcall(f, handler, ...)
  local result = pack(pcall(f, ...))
  if result[1] then return unpack(result, 1, result.n) end
  return false, select(2, pcall(handler, result[2]))
end

-- Durations in seconds; anything but a number is the designer's mistake, said at their line.
local function duration(name, seconds)
  return function(n)
    if type(n) ~= "number" then
      local got = type(n) == "nil" and "nil" or type(n) == "string" and ('a string ("' .. n:sub(1, 40) .. '")')
        or ("a " .. type(n))
      error(name .. "() takes a number of " .. name .. ", got " .. got .. ", as in " .. name .. "(20)", 2)
    end
    return n * seconds
  end
end
base.minutes = duration("minutes", 60)
base.hours = duration("hours", 3600)
base.days = duration("days", 86400)

-- Ids: 1 to limits.id_length letters, digits or - _ . : /
local function check_id(what, id)
  if type(id) == "string" and (#id == 0 or #id > limits.id_length or id:find("[^%w%-_%.:/]")) then
    error(what .. " '" .. id:sub(1, 40) .. (#id > 40 and "...'" or "'") .. " must be 1 to " .. limits.id_length
      .. " letters, digits or - _ . : / (sandbox)", 3)
  end
end

-- A definition's tables copied raw, so the host reads plain tables and runs no metamethod.
local function plain(t)
  if type(t) ~= "table" then return t end
  local copy = {}
  for k, v in next, t do copy[k] = v end
  return copy
end

local function definer(kind)
  return function(id, ...)
    check_id(kind, id)
    local define = G["__dwell_" .. kind](id, ...)
    return function(spec)
      local copy = plain(spec)
      if type(copy) == "table" and type(copy.tiers) == "table" then
        local tiers = plain(copy.tiers)
        for i, tier in next, tiers do
          tiers[i] = plain(tier)
          if type(tier) == "table" then check_id("tier", rawget(tier, 1)) end
        end
        copy.tiers = tiers
      end
      return define(copy)
    end
  end
end
base.unlock = definer("unlock")
base.achievement = definer("achievement")
function base.levels(list, ...) return G.__dwell_levels(plain(list), ...) end

local plugins = {}
-- Each plugin's handlers by event, out of scripts' reach: only `on` adds to them, and it
-- tells the host, which calls a plugin's only handler of an event without `dispatch`.
local handlers = {}
local events = { screen_enter = true, screen_leave = true, session_start = true, pause = true,
                 day_start = true, unlock = true, tick = true, action = true, level_up = true }

function base.plugin(name)
  if type(name) ~= "string" or name == "" then
    error('plugin needs a name, as in local owl = plugin "night-owl"', 2)
  end
  check_id("plugin", name)
  defining("plugin", name) -- raises once the files have run (from a check or a handler)
  if plugins[name] then error("plugin '" .. name .. "' is defined twice", 2) end
  local p = { name = name, state = {} }
  local own = {}
  handlers[name] = own
  function p.on(event, fn)
    if not events[event] then
      error("plugin '" .. name .. "': unknown event '" .. tostring(event) .. "' (events: screen_enter, " ..
            "screen_leave, session_start, pause, day_start, unlock, tick, action, level_up)", 2)
    end
    if type(fn) ~= "function" then
      error("plugin '" .. name .. "': on('" .. event .. "', ...) needs a function", 2)
    end
    local list = own[event] or {}
    list[#list + 1] = fn
    own[event] = list
    subscribe(name, event, fn, #list)
  end
  function p.award(points, reason) act("award", name, points, reason) end
  function p.unlock(id) act("unlock", name, id) end
  function p.notify(title, body) act("notify", name, title, body) end
  function p.publish(key, value) act("publish", name, key, value) end
  function p.progress(id, fraction, text) act("progress", name, id, fraction, text) end
  plugins[name] = p
  return p
end

-- Runs the plugin's handlers of `event` (the host saves its state later, at a checkpoint):
-- what ipairs would run (list[1], list[2]... up to the first nil, read as ipairs reads
-- them), without a call of its C iterator for each (this runs every second of app time).
local function dispatch(name, event, u, arg, number)
  local list = handlers[name][event]
  if not list then return end
  local i, fn = 1, list[1]
  while fn ~= nil do
    fn(u, arg, number)
    i = i + 1
    fn = list[i]
  end
end
local function set_state(name, value) plugins[name].state = value end

-- Each file's globals: its own, over the shared allow-list, which no file can change.
local environment_meta = { __index = base, __metatable = false }
local function new_environment()
  local env = setmetatable({}, environment_meta)
  env._G = env
  return env
end
return dispatch, set_state, new_environment, plugins
