// A command used wrongly: said with the usage, exit 2.

/// A mistake in how the command was called: exit code 2.
struct UsageError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}
