-- Learning app: badges, points and levels.
--
-- An achievement is an unlock worth points. Tiers (bronze, silver, gold) are
-- thresholds of one figure; each tier is earned on its own. A hidden achievement
-- stays secret in the app until it is earned.

achievement "first-lesson" {
  title = "First lesson",
  points = 10,
  when = { screen = "Lessons", visits = 1 },
}

achievement "lesson-time" {
  title = "Lesson time",
  tiers = {
    { "bronze", when = { screen = "Lessons", seconds = minutes(10) }, points = 10 },
    { "silver", when = { screen = "Lessons", seconds = hours(1) },    points = 25 },
    { "gold",   when = { screen = "Lessons", seconds = hours(5) },    points = 50 },
  },
}

achievement "week-of-practice" {
  title = "A week of practice",
  points = 40,
  when = { streak = 7 },
}

-- A scripted check: any Lua function of the usage so far.
achievement "balanced-learner" {
  title = "Balanced learner",
  hidden = true,
  points = 30,
  check = function(u)
    local lessons, quiz = u.screen("Lessons"), u.screen("Quiz")
    return lessons.seconds >= minutes(20) and quiz.seconds >= minutes(10)
  end,
}

-- Levels from points (XP): the highest level whose points are reached.
levels {
  { "Beginner", 0 },
  { "Learner", 30 },
  { "Scholar", 100 },
  { "Master", 250 },
}
