unlock "calm-both" { when = { screen = "Breathe", screens = { "Breathe", "Meditate" }, visits = 2 } }
