unlock "calm-twice" { when = { screens = { "Breathe", "Breathe" }, seconds = 60 } }
