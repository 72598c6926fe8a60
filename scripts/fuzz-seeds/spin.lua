unlock "spin" { check = function(u) while true do pcall(function() while true do end end) end end }
unlock "ok" { check = function(u) return u.app.seconds >= 1 end }
