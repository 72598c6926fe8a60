-- Reading app: daily goals, reading streaks and a "finished a book" milestone.

-- "12 of 20 minutes today": a daily goal is a recurring rule, earned again each day
-- its own figures (20 minutes of Reader that day) meet it.
unlock "daily-goal" {
  title = "Daily goal",
  description = "Read 20 minutes today",
  every = "day",
  when = { screen = "Reader", seconds = minutes(20) },
}

-- A weekly goal: five days of reading in one ISO week (Monday to Sunday), earned
-- every week, with its points each time.
achievement "weekly-reader" {
  title = "Weekly reader",
  every = "week",
  points = 15,
  when = { activeDays = 5, screen = "Reader", minimumPerDay = minutes(10) },
}

achievement "bookworm" {
  title = "Bookworm",
  tiers = {
    { "bronze", when = { streak = 3, screen = "Reader", minimumPerDay = minutes(10) }, points = 10 },
    { "silver", when = { streak = 7, screen = "Reader", minimumPerDay = minutes(10) }, points = 30 },
    { "gold",   when = { streak = 30, screen = "Reader", minimumPerDay = minutes(10) }, points = 100 },
  },
}

unlock "night-mode-theme" {
  title = "Night mode theme",
  description = "Read for 5 hours in all",
  when = { screen = "Reader", seconds = hours(5) },
}

-- The host app tells scripts how many books are finished: host.books_finished().
achievement "first-book" {
  title = "First book",
  points = 25,
  check = function(u) return host.books_finished ~= nil and host.books_finished() >= 1 end,
}

levels { { "Reader", 0 }, { "Bookworm", 50 }, { "Librarian", 150 } }
