-- The meditation pack of ../meditation with its five tick plugins replaced by the
-- declarative forms (every, within, from/to, unlocked, actions): the speed a designer gets
-- without plugins (`dwell-bench --simulation balance`, balance_meditation_decl).

levels { { "Seed", 0 }, { "Sprout", 40 }, { "Bloom", 120 }, { "Grove", 300 } }

achievement "first-breath" { title = "First breath", points = 5, when = { screen = "Breathe", visits = 1 } }
achievement "calm-ten" { title = "Ten calm minutes", points = 10, when = { screen = "Meditate", seconds = minutes(10) } }
achievement "calm-hour" { title = "A calm hour", points = 30, when = { screen = "Meditate", seconds = hours(1) } }
achievement "three-days" { title = "Three days", points = 15, when = { activeDays = 3 } }
achievement "week-streak" { title = "A week in a row", points = 40, when = { streak = 7, minimumPerDay = minutes(5) } }
unlock "sleep-stories" { title = "Sleep stories", when = { screen = "Sleep", seconds = minutes(20) } }
unlock "regular" { title = "Regular", when = { sessions = 10 } }

-- What the plugins did, declared.
achievement "daily-calm" {
  title = "Calm today", points = 2, every = "day", when = { screen = "Meditate", seconds = minutes(5) },
}
achievement "deep-focus" {
  title = "Deep focus", points = 25, when = { screen = "Meditate", seconds = minutes(20), within = "day" },
}
achievement "journal-habit" {
  title = "Journal habit", points = 15,
  when = { all = { { unlocked = "calm-ten" }, { action = "journal_entry", count = 10 } } },
}
achievement "balanced-day" {
  title = "Balanced day", points = 5, every = "day",
  when = { all = {
    { screen = "Meditate", seconds = 1 },
    { screen = "Breathe", seconds = 1 },
    { screen = "Journal", seconds = 1 },
    { appSeconds = minutes(10) },
  } },
}
achievement "winter-calm" {
  title = "Winter calm", points = 20, from = "2026-01-01", to = "2026-01-31", when = { appSeconds = hours(2) },
}
