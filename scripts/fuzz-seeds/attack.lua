-- Seeds from the attack findings: long-string comparisons, odd errors, awards, control characters.
unlock "t" { title = "ok", description = "plain", when = { sessions = 2 } }
local s = string.rep("a", 2000)
local list = {}
for i = 1, 50 do list[i] = i % 2 == 0 and s or s .. "b" end
unlock "sort" { check = function(u) table.sort(list) return (s .. "b"):find(s .. "c", 1, true) ~= nil end }
unlock "errs" { check = function(u)
  pcall(error, nil) pcall(error, {}) pcall(setmetatable, _G, {})
  return tonumber(s) == nil and tostring(u.app.seconds) ~= "\n"
end }
local p = plugin "attack"
p.on("tick", function(u)
  pcall(p.award, -1, "negative") pcall(p.award, 0 / 0)
  p.notify("line\n\27[2J", "\0\7")
  print("x\r\n", u.app.seconds)
  p.state = { n = (p.state.n or 0) + 1 }
end)
