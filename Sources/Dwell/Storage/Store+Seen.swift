/// Which unlocks the user has seen (the app showed them), kept in the store's `state`
/// table as `seen:<rule>` keys: an unlock shown once is not shown again after a relaunch,
/// and ``erase()`` forgets them with everything else.
extension Store {
  /// The ids of the rules whose unlocks were marked seen.
  func seenUnlocks() throws -> Set<String> {
    try read { database in
      let rows = try database.statement("SELECT key FROM state WHERE substr(key, 1, 5) = 'seen:'")
      var seen = Set<String>()
      while try rows.step() { seen.insert(String(rows.text(0).dropFirst(5))) }
      return seen
    }
  }

  /// Marks the unlocks of these rules seen, in one transaction.
  func markSeen(_ rules: [String]) throws {
    try write { database in
      try database.transaction {
        for rule in rules {
          try database.statement("INSERT OR REPLACE INTO state(key, value) VALUES(?, 1)").bind("seen:" + rule).run()
        }
      }
    }
  }
}
