-- Learning app: quests that come back, a summer event and a chain of unlocks.
--
-- The app records what the learner does as actions: tracker.record(.action("quiz_done"))
-- after each quiz. A rule with `every` is earned again in each day (or week, or month)
-- whose own figures meet it, with an achievement's points at each earning; `from` and
-- `to` keep a rule to those local dates; `unlocked` needs another rule first.

-- A daily quest: three quizzes today. Resets at local midnight.
achievement "daily-quizzes" {
  title = "Daily quizzes",
  description = "Finish 3 quizzes today",
  every = "day",
  points = 5,
  when = { action = "quiz_done", count = 3 },
}

-- A weekly goal: Lessons on 4 days of the week (Monday to Sunday), 5 minutes each.
achievement "weekly-practice" {
  title = "Weekly practice",
  description = "Practise on 4 days this week",
  every = "week",
  points = 20,
  when = { activeDays = 4, screen = "Lessons", minimumPerDay = minutes(5) },
}

-- A seasonal event: only July and August count.
achievement "summer-school" {
  title = "Summer school",
  description = "5 hours of Lessons over the summer",
  from = "2026-07-01", to = "2026-08-31",
  points = 50,
  when = { screen = "Lessons", seconds = hours(5) },
}

-- A chain: the exam opens once the bonus level and quiz master mode are unlocked,
-- and 20 quizzes are done.
unlock "exam" {
  title = "Final exam",
  description = "Unlock the bonus level and quiz master mode, then finish 20 quizzes",
  when = { all = {
    { unlocked = "bonus-level" },
    { unlocked = "quiz-master-mode" },
    { action = "quiz_done", count = 20 },
  } },
}
