unlock "fine" { when = { screens = { "Breathe", "Meditate" }, seconds = 60 } }
unlock "calm-empty" { when = { screens = {}, seconds = 60 } }
