local p = plugin "fuzz"
unlock "r1" { when = { sessions = 100 } }
p.on("screen_enter", function(u, s)
  p.state[s] = (p.state[s] or 0) + 1
  p.award(1, s) p.notify(s, tostring(u.app.seconds)) p.publish("last", { s, u.screen(s).visits })
  p.unlock("r1")
end)
p.on("tick", function(u) local t = p.state for i = 1, 10 do t.x = { t } t = t.x end end)
p.on("unlock", function(u, id) print(id, host.value) end)
