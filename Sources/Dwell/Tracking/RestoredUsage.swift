// What an engine reads back from the store at launch.

/// Everything the engine knows from the store when it starts.
struct RestoredUsage: Sendable {
  var app = Tally()
  var screens: [(name: String, tally: Tally, visits: Int)] = []
  var sessions = 0
  /// Sessions begun on each local day (sessions counted before Dwell kept them by day are in none).
  var sessionDays: [Day: Int] = [:]
  var actions: [String: ActionTally] = [:]
  var lastStop: StopMark?
  var unlocks: [UnlockRecord] = []
  /// Every earning of a recurring rule, oldest first.
  var earnings: [UnlockRecord] = []
  var points = 0
  var listenerStates: [String: String] = [:]
}
