local s = string.rep("a", 2000)
unlock "pattern" { check = function(u) return s:find(string.rep(".-", 6) .. "b") ~= nil end }
unlock "gsub" { check = function(u) return (s:gsub("(a)(a)", "%2%1")):len() > 0 end }
