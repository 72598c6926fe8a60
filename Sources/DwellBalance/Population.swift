// The personas of a balance run and their shares of the users.
package import DwellTesting
internal import Foundation

/// The personas of a population, with their shares normalised.
package struct Population: Sendable, Equatable {
  package var personas: [Persona]

  package init(_ personas: [Persona]) { self.personas = personas }

  /// The persona of user `index`: a draw by share from the user's own generator, so it
  /// does not depend on how users are split between workers.
  package func persona(_ rng: inout SeededGenerator) -> Int {
    Distribution.pick(personas.map(\.share), &rng)
  }
}
