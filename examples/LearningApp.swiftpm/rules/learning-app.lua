-- The example app's rules: a bonus screen, a badge and a daily goal.
unlock "bonus-level" {
  title = "Bonus level",
  description = "Spend 15 minutes in Lessons",
  when = { screen = "Lessons", seconds = minutes(15) },
}

achievement "bookworm" {
  title = "Bookworm",
  points = 20,
  when = { streak = 3, screen = "Lessons", minimumPerDay = minutes(5) },
}

unlock "daily-goal" {
  title = "Daily goal",
  every = "day",
  when = { screen = "Lessons", seconds = minutes(10) },
}

levels { { "Learner", 0 }, { "Scholar", 20 } }
