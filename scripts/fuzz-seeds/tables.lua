local big = {} for i = 1, 1000 do big[i] = string.rep("x", i % 50) end
unlock "move" { check = function(u) return #table.move(big, 1, 1000, 2, {}) > 0 and utf8.len("héllo") == 5 end }
unlock "sort" { check = function(u) table.sort(big) return big[1] == "" end }
