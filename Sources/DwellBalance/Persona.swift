// One kind of simulated user: how often, when, how long and where they use the app, and when they leave.
internal import DwellTesting
internal import Foundation

/// A kind of user, as a persona file describes it (see the article "Balancing a rule pack"
/// for every field). Each simulated user is drawn from one persona, by share.
package struct Persona: Sendable, Equatable {
  /// A screen of the persona's app: how long a stay lasts and where the user goes next.
  package struct Screen: Sendable, Equatable {
    package var name: String
    /// Seconds of one stay.
    package var stay: Distribution
    /// Where the user goes next, by weight (indexes into ``Persona/screens``); empty: the
    /// stay ends the session's navigation and the user stays until the session ends.
    package var next: [(screen: Int, weight: Double)]

    package static func == (a: Screen, b: Screen) -> Bool {
      a.name == b.name && a.stay == b.stay && a.next.map(\.screen) == b.next.map(\.screen)
        && a.next.map(\.weight) == b.next.map(\.weight)
    }
  }

  /// An interruption inside a session: how often (per screen stay) and how long.
  package struct Interruption: Sendable, Equatable {
    package var chance: Double
    package var length: Distribution
  }

  /// How often the user performs one action: in each session, or in each stay on one
  /// screen, with `chance` some happen, then `count` of them (rounded), spread over it.
  package struct ActionRate: Sendable, Equatable {
    /// The action's name, as the app records it (`tracker.record(.action(name))`).
    package var name: String
    /// `nil`: per session; otherwise per stay on this screen (an index into ``Persona/screens``).
    package var screen: Int?
    /// The chance that a session (or stay) has any of the action.
    package var chance: Double
    /// How many, when it has some.
    package var count: Distribution

    /// The most one session or stay performs (a larger draw counts as this many).
    package static let maximumCount = 10_000
  }

  /// The chance of leaving for good after a day of use: `max(floor, first * factor^(n-1))`
  /// after the n-th day used.
  package struct Churn: Sendable, Equatable {
    package var first: Double
    package var factor: Double
    package var floor: Double

    /// The chance after the `daysUsed`-th day of use.
    package func chance(afterDay daysUsed: Int) -> Double {
      var value = first
      if daysUsed > 1 { value *= pow(factor, Double(daysUsed - 1)) }
      return min(1, max(floor, value))
    }
  }

  package var name: String
  /// Relative size of the persona in the population.
  package var share: Double
  /// Chance of using the app on a day after a day of use.
  package var daily: Double
  /// Chance of using the app on a day after a day without it.
  package var comeback: Double
  /// Multipliers of those chances, Monday first.
  package var weekdays: [Double]
  /// Sessions on a day of use (at least one).
  package var sessions: Distribution
  /// Seconds of one session, in the foreground.
  package var sessionLength: Distribution
  /// When sessions start: hour ranges `[from, to)` with weights.
  package var timeOfDay: [(from: Double, to: Double, weight: Double)]
  /// The screens; sessions start on `screens[start]`.
  package var screens: [Screen]
  package var start: Int
  /// Seconds between touches while on a screen.
  package var touches: Distribution
  /// Pauses without touching (the idle timeout, if any, stops accrual during them).
  package var idle: Interruption
  /// Trips to the background in the middle of a session.
  package var background: Interruption
  package var churn: Churn
  /// Actions the user performs (`actions = { quiz_done = { per = "session", count = poisson(2) } }`).
  package var actions: [ActionRate] = []

  package static func == (a: Persona, b: Persona) -> Bool {
    a.name == b.name && a.share == b.share && a.daily == b.daily && a.comeback == b.comeback
      && a.weekdays == b.weekdays && a.sessions == b.sessions && a.sessionLength == b.sessionLength
      && a.timeOfDay.map(\.from) == b.timeOfDay.map(\.from) && a.timeOfDay.map(\.to) == b.timeOfDay.map(\.to)
      && a.timeOfDay.map(\.weight) == b.timeOfDay.map(\.weight) && a.screens == b.screens && a.start == b.start
      && a.touches == b.touches && a.idle == b.idle && a.background == b.background && a.churn == b.churn
      && a.actions == b.actions
  }
}
