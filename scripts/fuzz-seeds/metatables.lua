local t = setmetatable({}, { __index = function(t, k) return k end, __len = function() return 1e9 end })
unlock "meta" { check = function(u) return table.concat(t, ",", 1, 10) ~= "" and #t > 0 end }
local x <close> = nil
unlock "xp" { check = function(u) return select(2, xpcall(error, function(m) return m end, "x")) == "x" end }
