-- A meditation app's rules: 7 declarative, 5 unlocked by the plugins in plugins.lua.

levels { { "Seed", 0 }, { "Sprout", 40 }, { "Bloom", 120 }, { "Grove", 300 } }

achievement "first-breath" { title = "First breath", points = 5, when = { screen = "Breathe", visits = 1 } }
achievement "calm-ten" { title = "Ten calm minutes", points = 10, when = { screen = "Meditate", seconds = minutes(10) } }
achievement "calm-hour" { title = "A calm hour", points = 30, when = { screen = "Meditate", seconds = hours(1) } }
achievement "three-days" { title = "Three days", points = 15, when = { activeDays = 3 } }
achievement "week-streak" { title = "A week in a row", points = 40, when = { streak = 7, minimumPerDay = minutes(5) } }
unlock "sleep-stories" { title = "Sleep stories", when = { screen = "Sleep", seconds = minutes(20) } }
unlock "regular" { title = "Regular", when = { sessions = 10 } }

-- Unlocked by the plugins only (no user reaches a million sessions).
achievement "night-calm" { title = "Night calm", points = 20, when = { sessions = 1000000 } }
achievement "deep-focus" { title = "Deep focus", points = 25, when = { sessions = 1000000 } }
achievement "journal-habit" { title = "Journal habit", points = 15, when = { sessions = 1000000 } }
achievement "balanced-day" { title = "Balanced day", points = 20, when = { sessions = 1000000 } }
unlock "daily-ten" { title = "Ten minutes a day", when = { sessions = 1000000 } }
