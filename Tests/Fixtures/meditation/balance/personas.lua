-- Who uses the meditation app: a few minutes most days, a habit, and evening sessions.

local screens = {
  Home     = { stay = lognormal(15, 0.5),         next = { Breathe = 3, Meditate = 4, Journal = 1, Sleep = 1 } },
  Breathe  = { stay = lognormal(minutes(2), 0.5), next = { Meditate = 3, Home = 1 } },
  Meditate = { stay = lognormal(minutes(8), 0.6), next = { Journal = 1, Home = 2 } },
  Journal  = { stay = lognormal(minutes(2), 0.6), next = { Home = 1 } },
  Sleep    = { stay = lognormal(minutes(15), 0.5) },
}

persona "casual" {
  share = 0.5, daily = 0.6, comeback = 0.35,
  sessions = poisson(1.2), sessionLength = lognormal(minutes(8), 0.6),
  timeOfDay = { {7, 9, 1}, {12, 14, 1}, {20, 23, 2} },
  screens = screens, start = "Home", touches = lognormal(20, 0.6),
  churn = { first = 0.1, factor = 0.9, floor = 0.01 },
}

persona "habit" {
  share = 0.3, daily = 0.92, comeback = 0.8,
  sessions = uniform(1, 3), sessionLength = lognormal(minutes(15), 0.4),
  timeOfDay = { {6, 8, 2}, {21, 23, 2} },
  screens = screens, start = "Breathe", touches = lognormal(30, 0.6),
  churn = { first = 0.02, factor = 0.97, floor = 0.002 },
}

persona "night" {
  share = 0.2, daily = 0.7, comeback = 0.5,
  sessions = 1, sessionLength = lognormal(minutes(25), 0.5),
  timeOfDay = { {22, 24, 1} },
  screens = screens, start = "Sleep", touches = lognormal(40, 0.6),
  churn = { first = 0.05, factor = 0.95, floor = 0.01 },
}
