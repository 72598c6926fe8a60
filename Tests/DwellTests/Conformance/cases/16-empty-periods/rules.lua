-- The same rules as rules.json, written in Lua.
unlock "four-day-streak" { when = { streak = 4 } }
unlock "four-active-days" { when = { activeDays = 4 } }
unlock "four-lesson-days" { when = { activeDays = 4, screen = "Lessons" } }
unlock "three-lesson-streak" { when = { streak = 3, screen = "Lessons" } }
unlock "a-day-in-the-shop" { when = { activeDays = 1, screen = "Shop" } }
unlock "saw-the-shop" { when = { screen = "Shop", visits = 1 } }
unlock "four-sessions" { when = { sessions = 4 } }
