-- Learning app: what practice unlocks.
--
-- Read each rule aloud: "unlock the bonus level after 30 minutes in Lessons".
-- `when` takes the conditions of the accounting contract (Accounting.md in the docs); minutes(), hours() and days() turn
-- numbers into seconds. A rule unlocks at the exact moment its condition holds,
-- and stays unlocked for ever.

unlock "bonus-level" {
  title = "Bonus level",
  description = "Spend 30 minutes in Lessons",
  when = { screen = "Lessons", seconds = minutes(30) },
}

unlock "quiz-master-mode" {
  title = "Quiz master mode",
  description = "Take 5 quizzes",
  when = { screen = "Quiz", visits = 5 },
}

-- Both parts must hold: it unlocks when the later one does.
unlock "advanced-track" {
  title = "Advanced track",
  description = "Come back for a second session and spend an hour in Lessons",
  when = { all = { { sessions = 2 }, { screen = "Lessons", seconds = hours(1) } } },
}

-- Practice streak: three days in a row with at least two minutes of Lessons.
unlock "streak-freeze" {
  title = "Streak freeze",
  description = "Practise 3 days in a row",
  when = { streak = 3, screen = "Lessons", minimumPerDay = minutes(2) },
}
