-- A game with time-gated levels: each world opens after time played, so players
-- pace themselves; a daily login bonus comes from a plugin.

unlock "world-2" { title = "World 2", description = "Play 15 minutes", when = { appSeconds = minutes(15) } }
unlock "world-3" { title = "World 3", description = "Play 1 hour over 2 days",
                   when = { all = { { appSeconds = hours(1) }, { activeDays = 2 } } } }
unlock "world-4" { title = "World 4", description = "Play 5 days, 10 minutes each",
                   when = { activeDays = 5, minimumPerDay = minutes(10) } }

achievement "regular" {
  title = "Regular",
  tiers = {
    { "bronze", when = { sessions = 10 },  points = 5 },
    { "silver", when = { sessions = 50 },  points = 20 },
    { "gold",   when = { sessions = 200 }, points = 60 },
  },
}

local bonus = plugin "daily-bonus"

bonus.on("session_start", function(u)
  if bonus.state.last_day ~= u.date then
    bonus.state.last_day = u.date
    bonus.award(5, "daily login")
    bonus.notify("Daily bonus", "+5 coins for coming back today")
  end
end)

levels { { "Rookie", 0 }, { "Adventurer", 50 }, { "Hero", 200 } }
