-- Seeds heavy in metamethods: every event a table can have, lying lengths, metamethods that
-- are C functions, chained __index, and the table functions given such tables (refused).
local n = 0
local lying = setmetatable({ 1, 2, 3 }, { __len = function() n = n + 1 return n == 1 and 1 or 2^40 end })
local chain = {}
for i = 1, 30 do chain = setmetatable({}, { __index = chain, __newindex = rawset }) end
local ops = setmetatable({}, {
  __add = function(a, b) return 1 end, __sub = rawequal, __mul = math.max, __lt = function() return true end,
  __le = rawequal, __eq = function() return false end, __concat = function(a, b) return "c" end,
  __call = function(self, ...) return select("#", ...) end, __unm = tostring, __tostring = function() return "ops" end,
  __index = function(t, k) return k end, __len = function() return -1 end, __idiv = math.ult,
})
unlock "meta-heavy" { check = function(u)
  pcall(table.remove, lying, 1) pcall(table.insert, lying, 1, 5) pcall(table.sort, lying, rawequal)
  pcall(table.concat, lying) pcall(table.unpack, lying) pcall(table.move, lying, 1, 3, 1, chain)
  local _ = chain.x, chain[1]
  pcall(function() return ops + 1, ops - ops, ops * 2, ops < ops, ops <= ops, ops == ops, ops .. "x", ops(1, 2),
    -ops, tostring(ops), ops.key, #ops, ops // 2 end)
  pcall(setmetatable, {}, { __mode = "k" }) pcall(setmetatable, {}, { __gc = print })
  return ops(1, 2, 3) == 3
end }
local p = plugin "meta"
p.on("tick", function(u)
  pcall(p.publish, "m", setmetatable({ a = 1 }, { __index = function() error("no") end, __pairs = error }))
  pcall(p.notify, setmetatable({}, { __tostring = function() return "t" end }))
  pcall(table.sort, { 3, 2, 1 }, function(a, b) return ops < ops end)
end)
