-- Who reads, for `dwell balance rules/reading` (fields: "Personas" in the DwellLua article "Balancing a rule pack").
-- The pack's "first-book" check asks the host app (host.books_finished), which a
-- simulation does not have: the report flags it as never unlocked.

local screens = {
  Library = { stay = lognormal(25, 0.5),           next = { Reader = 5, Store = 1 } },
  Reader  = { stay = lognormal(minutes(6), 0.6),   next = { Reader = 4, Library = 1 } },
  Store   = { stay = lognormal(40, 0.6),           next = { Library = 1 } },
}

persona "bedtime-reader" {
  share = 0.5,
  daily = 0.85, comeback = 0.6,
  sessions = 1,
  sessionLength = lognormal(minutes(20), 0.4),
  timeOfDay = { {21, 24, 1} },
  screens = screens, start = "Reader",
  idle = { chance = 0.1, length = lognormal(minutes(2), 0.8) },
  churn = { first = 0.03, factor = 0.98, floor = 0.005 },
}

persona "commuter" {
  share = 0.3,
  daily = 0.7, comeback = 0.5,
  weekdays = { sat = 0.3, sun = 0.3 },
  sessions = 2,
  sessionLength = lognormal(minutes(12), 0.4),
  timeOfDay = { {7, 9, 1}, {17, 19, 1} },
  screens = screens, start = "Library",
  churn = { first = 0.05, factor = 0.95, floor = 0.01 },
}

persona "browser" {
  share = 0.2,
  daily = 0.3, comeback = 0.2,
  sessions = 1,
  sessionLength = lognormal(minutes(5), 0.7),
  screens = screens, start = "Library",
  churn = { first = 0.3, factor = 1.1, floor = 0.15 },
}
