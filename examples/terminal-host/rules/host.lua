-- The example host's rules: a lesson unlock, a quiz achievement, levels and a plugin.
unlock "bonus-level" { title = "Bonus level", when = { screen = "Lessons", seconds = minutes(10) } }

achievement "quiz-time" {
  title = "Quiz time",
  tiers = {
    { "bronze", when = { screen = "Quiz", seconds = minutes(1) }, points = 5 },
    { "silver", when = { screen = "Quiz", seconds = minutes(10) }, points = 15 },
  },
}

levels { { "Newcomer", 0 }, { "Regular", 5 } }

local welcome = plugin "welcome-back"
welcome.on("session_start", function(u)
  if u.app.sessions > 1 and host.subscriber then welcome.notify("Welcome back!") end
end)
