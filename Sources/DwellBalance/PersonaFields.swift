// Turns one persona's Lua table into a Persona, checking every field and naming the wrong one.
internal import Dwell

/// Reads the fields of one persona (`spec` is its table as JSON), with defaults.
struct PersonaFields {
  let name: String
  let spec: JSONValue

  static let known: Set<String> = [
    "share", "daily", "comeback", "weekdays", "sessions", "sessionLength", "timeOfDay", "screens", "start",
    "touches", "idle", "background", "churn", "actions",
  ]
  static let weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
  /// The shortest typical duration a persona may give, in seconds: the simulation draws
  /// no visit or gap between touches shorter, so a smaller one (often milliseconds meant
  /// as seconds) would only multiply the events of a run.
  static let shortestDuration = 0.5

  func persona() throws(PersonaError) -> Persona {
    guard case .object(let members) = spec else { throw PersonaError("needs a table of fields") }
    try Self.known(members, Self.known, "")
    let (screens, start) = try self.screens()
    var persona = Persona(
      name: name, share: try number("share", default: 1, in: 0...1e9),
      daily: try number("daily", default: 0.7, in: 0...1), comeback: try number("comeback", default: 0.3, in: 0...1),
      weekdays: try weekdays(), sessions: try distribution("sessions", spec["sessions"], default: .poisson(2)),
      sessionLength: try duration(
        "sessionLength", spec["sessionLength"], default: .lognormal(median: 300, spread: 0.7)),
      timeOfDay: try timeOfDay(), screens: screens, start: start,
      touches: try duration("touches", spec["touches"], default: .lognormal(median: 20, spread: 0.6)),
      idle: try interruption("idle"), background: try interruption("background"), churn: try churn())
    persona.actions = try actions(screens: screens.map(\.name))
    return persona
  }

  func number(
    _ key: String, _ value: JSONValue?, default fallback: Double, in range: ClosedRange<Double>
  ) throws(PersonaError) -> Double {
    guard let value else { return fallback }
    guard case .number(let number, _) = value else {
      throw PersonaError("\(key) must be a number, not \(value.typeName)")
    }
    guard range.contains(number) else {
      throw PersonaError("\(key) must be between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound))")
    }
    return number
  }

  private func number(_ key: String, default fallback: Double, in range: ClosedRange<Double>) throws(PersonaError)
    -> Double
  {
    try number(key, spec[key], default: fallback, in: range)
  }

  /// Refuses a key of `members` that is not one of `known`, naming the nearest one
  /// (`where` is "" or the field the table is, "churn.").
  static func known(_ members: [(key: String, value: JSONValue)], _ known: Set<String>, _ place: String)
    throws(PersonaError)
  {
    guard let unknown = members.map(\.key).first(where: { !known.contains($0) }) else { return }
    throw PersonaError(
      "\(place)unknown field '\(unknown)'\(Spelling.hint(for: unknown, in: known)) "
        + "(fields: \(known.sorted().joined(separator: ", ")))")
  }

  static func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }

  /// A number, or one of the helpers' tables: `{ uniform = {a, b} }` and so on.
  func distribution(_ key: String, _ value: JSONValue?, default fallback: Distribution) throws(PersonaError)
    -> Distribution
  {
    guard let value else { return fallback }
    func pair(_ v: JSONValue?) -> (Double, Double)? {
      guard case .array(let items)? = v, items.count == 2, case .number(let a, _) = items[0],
        case .number(let b, _) = items[1], a >= 0, b >= 0
      else { return nil }
      return (a, b)
    }
    let bad = PersonaError(
      "\(key) must be a number of at least 0 or uniform(a, b), normal(mean, deviation), lognormal(median, spread) or poisson(mean), with no negative part"
    )
    switch value {
    case .number(let n, _):
      guard n >= 0 else { throw bad }
      return .constant(n)
    case .object(let members) where members.count == 1:
      let (kind, argument) = (members[0].key, members[0].value)
      switch kind {
      case "uniform":
        guard let (a, b) = pair(argument), a <= b else { throw bad }
        return .uniform(a, b)
      case "normal":
        guard let (a, b) = pair(argument) else { throw bad }
        return .normal(mean: a, deviation: b)
      case "lognormal":
        guard let (a, b) = pair(argument), b <= 5 else { throw bad }
        return .lognormal(median: a, spread: b)
      case "poisson":
        guard case .number(let mean, _) = argument, mean >= 0, mean <= 10_000 else { throw bad }
        return .poisson(mean)
      default:
        let hint = Spelling.hint(for: kind, in: ["uniform", "normal", "lognormal", "poisson"])
        throw hint.isEmpty ? bad : PersonaError("\(key): unknown distribution '\(kind)'\(hint)")
      }
    default: throw bad
    }
  }

  /// A distribution of seconds: its typical value (the constant, the mean, the median) at
  /// least ``shortestDuration``.
  private func duration(_ key: String, _ value: JSONValue?, default fallback: Distribution) throws(PersonaError)
    -> Distribution
  {
    let result = try distribution(key, value, default: fallback)
    let typical: Double
    switch result {
    case .constant(let n), .poisson(let n): typical = n
    case .uniform(let low, let high): typical = (low + high) / 2
    case .normal(let mean, _): typical = mean
    case .lognormal(let median, _): typical = median
    }
    guard typical >= Self.shortestDuration else {
      throw PersonaError(
        "\(key) is \(Self.format(typical)) s, under the shortest duration of \(Self.format(Self.shortestDuration)) s "
          + "(durations are seconds: minutes() and hours() help)")
    }
    return result
  }

  private func weekdays() throws(PersonaError) -> [Double] {
    guard let value = spec["weekdays"] else { return Array(repeating: 1, count: 7) }
    guard case .object(let members) = value else {
      throw PersonaError("weekdays must be a table like { sat = 0.5, sun = 0.5 }")
    }
    var result = Array(repeating: 1.0, count: 7)
    for (key, item) in members {
      guard let index = Self.weekdayNames.firstIndex(of: key) else {
        throw PersonaError(
          "weekdays: unknown day '\(key)'\(Spelling.hint(for: key, in: Self.weekdayNames)) "
            + "(days: mon, tue, wed, thu, fri, sat, sun)")
      }
      result[index] = try number("weekdays." + key, item, default: 1, in: 0...100)
    }
    return result
  }

  private func timeOfDay() throws(PersonaError) -> [(from: Double, to: Double, weight: Double)] {
    guard let value = spec["timeOfDay"] else { return [(7, 23, 1)] }
    let bad = PersonaError(
      "timeOfDay must be a list of { from, to, weight } in hours, as in { {7, 9, 1}, {18, 23, 3} }")
    guard case .array(let items) = value, !items.isEmpty else { throw bad }
    var result: [(from: Double, to: Double, weight: Double)] = []
    for item in items {
      guard case .array(let parts) = item, parts.count == 3, case .number(let from, _) = parts[0],
        case .number(let to, _) = parts[1], case .number(let weight, _) = parts[2], from >= 0, from < to, to <= 24,
        weight >= 0
      else { throw bad }
      result.append((from, to, weight))
    }
    guard result.contains(where: { $0.weight > 0 }) else { throw bad }
    return result
  }

  private func screens() throws(PersonaError) -> ([Persona.Screen], Int) {
    guard case .object(let members)? = spec["screens"], !members.isEmpty else {
      throw PersonaError(
        "screens must be a table like { Home = { stay = 20, next = { Lessons = 3, Quiz = 1 } } }")
    }
    let names = members.map(\.key)
    var screens: [Persona.Screen] = []
    for (name, value) in members {
      guard case .object(let fields) = value else { throw PersonaError("screens.\(name) must be a table") }
      try Self.known(fields, ["stay", "next"], "screens.\(name): ")
      let stay = try duration("screens.\(name).stay", value["stay"], default: .lognormal(median: 30, spread: 0.7))
      var next: [(screen: Int, weight: Double)] = []
      if let targets = value["next"] {
        guard case .object(let weights) = targets else {
          throw PersonaError("screens.\(name).next must be a table of weights like { Lessons = 3, Quiz = 1 }")
        }
        for (target, weight) in weights {
          guard let index = names.firstIndex(of: target) else {
            throw PersonaError(
              "screens.\(name).next: '\(target)' is not one of the screens\(Spelling.hint(for: target, in: names))")
          }
          next.append((index, try number("screens.\(name).next.\(target)", weight, default: 0, in: 0...1e9)))
        }
      }
      screens.append(Persona.Screen(name: name, stay: stay, next: next))
    }
    guard let startName = spec["start"] else { return (screens, 0) }
    guard case .string(let text) = startName, let start = names.firstIndex(of: text) else {
      var hint = ""
      if case .string(let text) = startName { hint = Spelling.hint(for: text, in: names) }
      throw PersonaError("start must name one of the screens (\(names.joined(separator: ", ")))\(hint)")
    }
    return (screens, start)
  }

  private func interruption(_ key: String) throws(PersonaError) -> Persona.Interruption {
    guard let value = spec[key] else { return Persona.Interruption(chance: 0, length: .constant(0)) }
    guard case .object(let members) = value else {
      throw PersonaError("\(key) must be a table like { chance = 0.1, length = 60 }")
    }
    try Self.known(members, ["chance", "length"], "\(key): ")
    return Persona.Interruption(
      chance: try number("\(key).chance", value["chance"], default: 0, in: 0...1),
      length: try duration("\(key).length", value["length"], default: .constant(60)))
  }

  private func churn() throws(PersonaError) -> Persona.Churn {
    guard let value = spec["churn"] else { return Persona.Churn(first: 0.05, factor: 1, floor: 0) }
    if case .number = value {
      let chance = try number("churn", value, default: 0, in: 0...1)
      return Persona.Churn(first: chance, factor: 1, floor: chance)
    }
    guard case .object(let members) = value else {
      throw PersonaError("churn must be a chance or a table like { first = 0.3, factor = 0.9, floor = 0.01 }")
    }
    try Self.known(members, ["first", "factor", "floor"], "churn: ")
    return Persona.Churn(
      first: try number("churn.first", value["first"], default: 0.05, in: 0...1),
      factor: try number("churn.factor", value["factor"], default: 1, in: 0...10),
      floor: try number("churn.floor", value["floor"], default: 0, in: 0...1))
  }
}
