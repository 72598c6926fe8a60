-- A plugin: its own namespace and its own small saved state (owl.state), kept
-- across restarts and reloads. It listens to events and can award points,
-- unlock rules and post notifications the app shows.
--
-- Events: screen_enter, screen_leave (with the screen's name), session_start,
-- pause, day_start (with the date), unlock (with the rule's id), and tick (every
-- second of app time).

local owl = plugin "night-owl"

owl.on("day_start", function(u, date)
  owl.state.today = date
  owl.state.late_seconds = 0
end)

owl.on("tick", function(u)
  if u.hour >= 23 or u.hour < 4 then
    owl.state.late_seconds = (owl.state.late_seconds or 0) + 1
    if owl.state.late_seconds == minutes(10) and not owl.state.earned then
      owl.state.earned = true
      owl.award(20, "ten minutes of practice after 23:00")
      owl.notify("Night owl", "Ten minutes of practice after 23:00")
    end
  end
end)

-- Weekend warrior: practice on a Saturday and a Sunday (weekday 6 and 7).
local weekend = plugin "weekend-warrior"

weekend.on("screen_enter", function(u, screen)
  if screen ~= "Lessons" or u.weekday < 6 then return end
  weekend.state[tostring(u.weekday)] = true
  if weekend.state["6"] and weekend.state["7"] and not weekend.state.earned then
    weekend.state.earned = true
    weekend.award(15, "practised on Saturday and Sunday")
    weekend.notify("Weekend warrior")
  end
end)
