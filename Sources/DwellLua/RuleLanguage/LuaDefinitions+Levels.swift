internal import CLuaSandbox
internal import Dwell

/// `levels { { "Beginner", 0 }, ... }`: the pack's levels, lowest first, each with its own points.
extension LuaDefinitions {
  static let levels: dwell_lua_host_function = { L in
    guard let L, let state = LuaState.owner(L) else { return 0 }
    let place = state.whereCalled()
    if let refusal = LuaDefinitions.afterLoading(state, "levels", place: place) { return refusal }
    guard dwell_lua_istable(L, 1) != 0, let value = try? state.json(at: 1), case .array(let items) = value,
      !items.isEmpty
    else {
      return state.raise("\(place) levels takes a list, as in levels { { \"Beginner\", 0 }, { \"Learner\", 50 } }")
    }
    guard state.collector.levels.isEmpty else {
      return state.raise("\(place) levels are defined twice; keep one levels { ... } list for the pack")
    }
    var result: [Level] = []
    for (position, item) in items.enumerated() {
      guard case .array(let pair) = item, pair.count == 2, case .string(let name) = pair[0],
        case .number(let points, _) = pair[1], points >= 0, points == points.rounded(), points <= 1e15
      else {
        return state.raise(
          "\(place) level \(position + 1) must be { \"Name\", points }, with whole points from 0 to "
            + "1,000,000,000,000,000, as in { \"Learner\", 50 }")
      }
      if name.isEmpty { return state.raise("\(place) level \(position + 1) needs a name, as in { \"Learner\", 50 }") }
      if let problem = LuaDefinitions.badText(name, "name") {
        return state.raise("\(place) level \(position + 1): \(problem.message)")
      }
      if result.contains(where: { $0.name == name }) {
        return state.raise("\(place) level '\(name)' is defined twice; give each level its own name")
      }
      if let same = result.first(where: { $0.points == Int(points) }) {
        return state.raise(
          "\(place) levels '\(same.name)' and '\(name)' both need \(Int(points)) points; give each level its own")
      }
      result.append(Level(name, points: Int(points)))
    }
    state.collector.levels = result
    return 0
  }
}
