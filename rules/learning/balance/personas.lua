-- Who uses the learning app, for `dwell balance rules/learning`.
--
-- Every field is described in "Personas" in the DwellLua article "Balancing a rule pack"; numbers are
-- seconds or chances, and any number can be a distribution instead:
-- uniform(a, b), normal(mean, deviation), lognormal(median, spread), poisson(mean).

local screens = {
  Home    = { stay = lognormal(15, 0.6),          next = { Lessons = 6, Quiz = 2, Profile = 1 } },
  Lessons = { stay = lognormal(minutes(3), 0.7),  next = { Lessons = 3, Quiz = 2, Home = 1 } },
  Quiz    = { stay = lognormal(minutes(2), 0.5),  next = { Lessons = 2, Home = 1 } },
  Profile = { stay = lognormal(20, 0.5),          next = { Home = 1 } },
}

-- What they do (the app records it: tracker.record(.action("quiz_done"))): most stays
-- on Quiz end with a quiz done.
local actions = { quiz_done = { per = "visit", screen = "Quiz", chance = 0.8 } }

-- A few minutes most days, often in the evening, less at weekends.
persona "casual" {
  share = 0.45,
  daily = 0.55, comeback = 0.35,
  weekdays = { sat = 0.7, sun = 0.7 },
  sessions = poisson(1.3),
  sessionLength = lognormal(minutes(4), 0.6),
  timeOfDay = { {7, 9, 1}, {12, 14, 1}, {18, 23, 3} },
  screens = screens, start = "Home", actions = actions,
  touches = lognormal(15, 0.6),
  idle = { chance = 0.05, length = lognormal(90, 0.8) },
  background = { chance = 0.04, length = lognormal(40, 1) },
  churn = { first = 0.12, factor = 0.9, floor = 0.01 },
}

-- A habit: a session every morning and one most evenings, long lessons.
persona "daily-learner" {
  share = 0.2,
  daily = 0.92, comeback = 0.8,
  sessions = uniform(1, 3),
  sessionLength = lognormal(minutes(12), 0.4),
  timeOfDay = { {6, 8, 2}, {19, 22, 2} },
  screens = screens, start = "Lessons", actions = actions,
  churn = { first = 0.02, factor = 0.97, floor = 0.002 },
}

-- Rare but long sessions, late at night.
persona "binge" {
  share = 0.15,
  daily = 0.35, comeback = 0.25,
  weekdays = { fri = 1.5, sat = 2, sun = 1.5 },
  sessions = 1,
  sessionLength = lognormal(minutes(45), 0.5),
  timeOfDay = { {20, 24, 2}, {0, 2, 1} },
  screens = screens, start = "Home", actions = actions,
  background = { chance = 0.08, length = lognormal(minutes(2), 1) },
  churn = { first = 0.05, factor = 1, floor = 0.05 },
}

-- Tries the app and leaves within days.
persona "churner" {
  share = 0.2,
  daily = 0.4, comeback = 0.15,
  sessions = poisson(1),
  sessionLength = lognormal(minutes(3), 0.8),
  screens = screens, start = "Home", actions = actions,
  churn = { first = 0.5, factor = 1.2, floor = 0.3 },
}
