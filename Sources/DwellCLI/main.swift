/// The `dwell` tool's entry point: runs the command line through the command table and
/// turns errors into a message on stderr and the exit code.
internal import Dwell
internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Writes `message` to standard error as one line: it may quote a file name, an option or
/// a pack's text, so its control characters are escaped (`escapingControls`).
func writeError(_ message: String) {
  Terminal.writeError("dwell: " + escapingControls(message) + "\n")
}

var code: Int32
do {
  try CommandTable.run(Array(CommandLine.arguments.dropFirst()))
  code = 0
} catch let error as UsageError {
  writeError(error.message)
  code = 2
} catch let error as CommandFailure {
  writeError(error.message)
  code = 1
} catch {
  writeError("\(error)")
  code = 1
}
if let problem = Terminal.outputProblem() {
  writeError(problem)
  if code == 0 { code = 1 }
}
exit(code)
