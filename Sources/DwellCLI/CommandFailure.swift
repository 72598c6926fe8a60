// A command that could not do its work: said, exit 1.

/// A failure while doing the work: exit code 1.
struct CommandFailure: Error {
  var message: String
  init(_ message: String) { self.message = message }
}
