-- The prelude every rule pack runs first: durations, plugins and their dispatch.
-- It returns the functions the host calls: dispatch, get_state and set_state.
function minutes(n) return n * 60 end
function hours(n) return n * 3600 end
function days(n) return n * 86400 end

local subscribe, act = __dwell_subscribe, __dwell_action
__dwell_subscribe, __dwell_action = nil, nil
local plugins = {}
local events = { screen_enter = true, screen_leave = true, session_start = true, pause = true,
                 day_start = true, unlock = true, tick = true }

function plugin(name)
  if type(name) ~= "string" or name == "" then
    error('plugin needs a name, as in local owl = plugin "night-owl"', 2)
  end
  if plugins[name] then error("plugin '" .. name .. "' is defined twice", 2) end
  local p = { name = name, state = {}, handlers = {} }
  function p.on(event, fn)
    if not events[event] then
      error("plugin '" .. name .. "': unknown event '" .. tostring(event) .. "' (events: screen_enter, " ..
            "screen_leave, session_start, pause, day_start, unlock, tick)", 2)
    end
    if type(fn) ~= "function" then
      error("plugin '" .. name .. "': on('" .. event .. "', ...) needs a function", 2)
    end
    local list = p.handlers[event] or {}
    list[#list + 1] = fn
    p.handlers[event] = list
    subscribe(name, event)
  end
  function p.award(points, reason) act("award", name, points, reason) end
  function p.unlock(id) act("unlock", name, id) end
  function p.notify(title, body) act("notify", name, title, body) end
  function p.publish(key, value) act("publish", name, key, value) end
  plugins[name] = p
  return p
end

local function dispatch(name, event, u, arg)
  local p = plugins[name]
  for _, fn in ipairs(p.handlers[event] or {}) do fn(u, arg) end
end
local function get_state(name) return plugins[name].state end
local function set_state(name, value) plugins[name].state = value end
return dispatch, get_state, set_state
