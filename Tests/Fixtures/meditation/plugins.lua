-- Five plugins that act each second of app time (tick) or each minute of it, as a
-- designer writes them before the declarative forms (every, from/to, unlocked, actions).

-- 1. A point for every minute spent breathing or meditating.
local mindful = plugin "mindful-minutes"
mindful.on("tick", function(u)
  local seconds = u.screen("Meditate").seconds + u.screen("Breathe").seconds
  local minute = seconds // 60
  if minute > (mindful.state.minute or 0) then
    mindful.state.minute = minute
    mindful.award(1, "a mindful minute")
  end
end)

-- 2. Fifteen minutes in the app after 22:00.
local night = plugin "night-calm"
night.on("tick", function(u)
  if night.state.done then return end
  if u.hour >= 22 or u.hour < 5 then
    night.state.late = (night.state.late or 0) + 1
    if night.state.late >= minutes(15) then
      night.state.done = true
      night.unlock("night-calm")
      night.notify("Night calm", "Fifteen minutes after 22:00")
    end
  end
end)

-- 3. Twenty minutes on Meditate in one visit.
local focus = plugin "deep-focus"
focus.on("screen_enter", function(u, screen) focus.state.run = 0 end)
focus.on("tick", function(u)
  if focus.state.done then return end
  if u.screen("Meditate").today_seconds > (focus.state.seen or 0) then
    focus.state.run = (focus.state.run or 0) + 1
    if focus.state.run >= minutes(20) then
      focus.state.done = true
      focus.unlock("deep-focus")
    end
  end
  focus.state.seen = u.screen("Meditate").today_seconds
end)

-- 4. Journal every minute: ten minutes of writing unlocks the habit; publishes the minutes.
local journal = plugin "journal"
journal.on("tick", function(u)
  local minute = u.screen("Journal").seconds // 60
  if minute > (journal.state.minutes or 0) then
    journal.state.minutes = minute
    journal.publish("journal_minutes", journal.state.minutes)
    if journal.state.minutes == 10 then journal.unlock("journal-habit") end
  end
end)

-- 5. A day with ten minutes in the app and some of each practice; daily-ten the first time.
local day = plugin "balanced-day"
day.on("day_start", function(u, date) day.state.date = date; day.state.awarded = false end)
day.on("tick", function(u)
  if day.state.awarded then return end
  if u.today_seconds >= minutes(10) then
    day.unlock("daily-ten")
    if u.screen("Breathe").today_seconds > 0 and u.screen("Meditate").today_seconds > 0
      and u.screen("Journal").today_seconds > 0 then
      day.state.awarded = true
      day.award(5, "a balanced day")
      day.unlock("balanced-day")
    end
  end
end)
