-- Who plays the game, for `dwell balance rules/game` (fields: "Personas" in the DwellLua article "Balancing a rule pack").

local screens = {
  Map   = { stay = lognormal(20, 0.5),          next = { Level = 8, Shop = 1 } },
  Level = { stay = lognormal(minutes(2), 0.6),  next = { Level = 3, Map = 2 } },
  Shop  = { stay = lognormal(30, 0.7),          next = { Map = 1 } },
}

-- Most stays on a level clear it (the app records tracker.record(.action("level_clear"))).
local actions = { level_clear = { per = "visit", screen = "Level", chance = 0.6 } }

persona "commuter" {
  share = 0.5,
  daily = 0.75, comeback = 0.4,
  weekdays = { sat = 0.5, sun = 0.5 },
  sessions = poisson(2),
  sessionLength = lognormal(minutes(6), 0.5),
  timeOfDay = { {7, 9, 3}, {17, 19, 3}, {21, 23, 1} },
  screens = screens, start = "Map", actions = actions,
  churn = { first = 0.08, factor = 0.93, floor = 0.01 },
}

persona "weekend-gamer" {
  share = 0.3,
  daily = 0.3, comeback = 0.3,
  weekdays = { sat = 3, sun = 3 },
  sessions = uniform(1, 4),
  sessionLength = lognormal(minutes(25), 0.6),
  timeOfDay = { {10, 23, 1} },
  screens = screens, start = "Map", actions = actions,
  background = { chance = 0.05, length = lognormal(minutes(3), 1) },
  churn = { first = 0.04, factor = 1, floor = 0.04 },
}

persona "churner" {
  share = 0.2,
  daily = 0.4, comeback = 0.1,
  sessions = 1,
  sessionLength = lognormal(minutes(4), 0.8),
  screens = screens, start = "Map", actions = actions,
  churn = { first = 0.5, factor = 1.2, floor = 0.3 },
}
