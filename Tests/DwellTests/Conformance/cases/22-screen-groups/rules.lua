-- The same rules as rules.json, written in Lua.
local calm = { "Breathe", "Meditate" }
unlock "calm-500" { when = { screens = calm, seconds = 500 } }
unlock "calm-700" { when = { screens = calm, seconds = 700 } }
unlock "calm-800" { when = { screens = { "Meditate", "Breathe" }, seconds = 800 } }
unlock "calm-visits-4" { when = { screens = calm, visits = 4 } }
unlock "calm-visits-7" { when = { screens = calm, visits = 7 } }
unlock "calm-day-450" { when = { screens = calm, seconds = 450, within = "day" } }
unlock "daily-calm" { every = "day", when = { screens = calm, seconds = 200 } }
unlock "calm-days-150" { when = { activeDays = 2, minimumPerDay = 150, screens = calm } }
unlock "calm-streak-2" { when = { streak = 2, minimumPerDay = 150, screens = calm } }
unlock "calm-from" { from = "2026-05-05", when = { screens = calm, seconds = 250 } }
unlock "weekly-calm-visits" { every = "week", when = { screens = calm, visits = 3 } }
