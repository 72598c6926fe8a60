// A persona's `actions`: how often each action is performed, per session or per stay on a screen.
internal import Dwell

extension PersonaFields {
  static let actionFields: Set<String> = ["per", "screen", "chance", "count"]
  static let actionExample = #"{ quiz_done = { per = "session", count = poisson(2) } }"#

  /// Reads `actions = { name = { per = "session" | "visit", screen = "Quiz", chance = 0.5,
  /// count = poisson(2) } }`; `screens` are the persona's screen names, in order.
  func actions(screens: [String]) throws(PersonaError) -> [Persona.ActionRate] {
    guard let value = spec["actions"] else { return [] }
    guard case .object(let members) = value else {
      throw PersonaError("actions must be a table of action names like \(Self.actionExample)")
    }
    var rates: [Persona.ActionRate] = []
    for (name, fields) in members {
      let place = "actions.\(name)"
      guard !name.isEmpty else { throw PersonaError("actions: an action needs a name, as in \(Self.actionExample)") }
      guard case .object(let items) = fields else {
        throw PersonaError(
          "\(place) must be a table like { per = \"session\", count = poisson(2) } "
            + "or { per = \"visit\", screen = \"Quiz\", chance = 0.6 }")
      }
      try Self.known(items, Self.actionFields, place + ": ")
      var screen: Int?
      let per = fields["per"] ?? .string("session")
      switch per {
      case .string("session"):
        guard fields["screen"] == nil else {
          throw PersonaError("\(place).screen goes with per = \"visit\" (a stay on that screen), not per = \"session\"")
        }
      case .string("visit"):
        guard case .string(let text)? = fields["screen"] else {
          throw PersonaError(
            "\(place): per = \"visit\" needs the screen, as in screen = \"\(screens.first ?? "Quiz")\"")
        }
        guard let index = screens.firstIndex(of: text) else {
          throw PersonaError(
            "\(place).screen: '\(text)' is not one of the screens\(Spelling.hint(for: text, in: screens)) "
              + "(\(screens.joined(separator: ", ")))")
        }
        screen = index
      default:
        var hint = ""
        if case .string(let text) = per { hint = Spelling.hint(for: text, in: ["session", "visit"]) }
        throw PersonaError("\(place).per must be \"session\" or \"visit\"\(hint)")
      }
      let chance = try number(place + ".chance", fields["chance"], default: 1, in: 0...1)
      let count = try distribution(place + ".count", fields["count"], default: .constant(1))
      rates.append(Persona.ActionRate(name: name, screen: screen, chance: chance, count: count))
    }
    return rates
  }
}
