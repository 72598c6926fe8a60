-- Seeds of strings full of NULs and long strings: comparisons (strcoll per NUL segment),
-- concatenation, patterns, conversions, table.concat by bytes, refused allocations caught.
local z = string.rep("\0", 1000)
local zz = z .. "\0a\0" .. z
local long = string.rep("x\0", 20000)
unlock "nul-compare" { check = function(u)
  local c = 0
  for i = 1, 20 do if z < zz then c = c + 1 end if zz <= z then c = c - 1 end end
  pcall(string.rep, "\0", 1e5)
  local ok = pcall(function() local s = "\0" for i = 1, 18 do s = s .. s end return s < s end)
  return c == 20 and not ok and long > z
end }
unlock "nul-text" { check = function(u)
  local s = zz:gsub("%z", "0") .. zz:sub(2, 10) .. string.format("%q", "\0\0")
  pcall(function() return (zz .. "1") + 1 end)
  return #table.concat({ z, zz, long }, "\0") > 0 and s:find("\0", 1, true) ~= nil and tostring(#s) ~= ""
end }
local p = plugin "nul"
p.on("tick", function(u)
  local big = string.rep("y", 3e5)
  for i = 1, 3 do pcall(function() return big .. big .. big .. big .. big .. big .. big .. big .. big end) end
  pcall(p.publish, "z", zz) pcall(p.notify, z, zz) pcall(u.screen, z .. z)
  print(zz)
end)
