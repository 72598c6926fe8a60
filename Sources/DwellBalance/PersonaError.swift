// Why a persona file was refused.
internal import Dwell

/// A mistake in a persona's fields.
struct PersonaError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}
