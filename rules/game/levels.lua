-- A game with time-gated levels: each world opens after time played, so players
-- pace themselves; a daily login bonus, a seasonal event and a chain of worlds.

unlock "world-2" { title = "World 2", description = "Play 15 minutes", when = { appSeconds = minutes(15) } }
unlock "world-3" { title = "World 3", description = "Play 1 hour over 2 days",
                   when = { all = { { appSeconds = hours(1) }, { activeDays = 2 } } } }
unlock "world-4" { title = "World 4", description = "Play 5 days, 10 minutes each",
                   when = { activeDays = 5, minimumPerDay = minutes(10) } }

achievement "regular" {
  title = "Regular",
  tiers = {
    { "bronze", when = { sessions = 10 },  points = 5 },
    { "silver", when = { sessions = 50 },  points = 20 },
    { "gold",   when = { sessions = 200 }, points = 60 },
  },
}

-- A daily login bonus: a recurring achievement is earned again each day its own
-- figures meet it (here the day's first session), with its points every time.
achievement "daily-bonus" {
  title = "Daily bonus",
  description = "+5 coins for coming back today",
  every = "day",
  points = 5,
  when = { sessions = 1 },
}

-- The app records an action when a level is cleared: tracker.record(.action("level_clear")).
achievement "clearer" {
  title = "Level clearer",
  tiers = {
    { "bronze", when = { action = "level_clear", count = 10 },  points = 10 },
    { "silver", when = { action = "level_clear", count = 50 },  points = 30 },
  },
}

-- A seasonal event: only the days from 20 to 31 December count, local dates inclusive.
achievement "winter-festival" {
  title = "Winter festival",
  description = "Play 1 hour between 20 and 31 December",
  from = "2026-12-20", to = "2026-12-31",
  points = 25,
  when = { appSeconds = hours(1) },
}

-- A chain: the final world needs world 4 first, then 100 cleared levels.
unlock "world-5" {
  title = "World 5",
  description = "Open World 4, then clear 100 levels",
  when = { all = { { unlocked = "world-4" }, { action = "level_clear", count = 100 } } },
}

levels { { "Rookie", 0 }, { "Adventurer", 50 }, { "Hero", 200 } }
