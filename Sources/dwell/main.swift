internal import Dwell
internal import DwellTesting
internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

let version = "0.1.0"

let help = """
  dwell \(version): on-device screen-time accounting and unlock rules

  USAGE: dwell <command> [options]

  COMMANDS:
    replay TRACE     Replay a lifecycle trace through the engine and print the report
    report STORE     Print the report of an existing store
    demo             Simulate weeks of a sample learning app and print its report
    sim              Simulate sessions by hand while writing rules (the harness)
    export STORE     Write every visit, day total and unlock as JSON or CSV
    erase STORE      Remove all usage data from a store
    check STORE      Integrity, schema, counts and date range of a store
    rules check PATH Validate rules (JSON or Lua) and explain each in words

  Run 'dwell <command> --help' for a command's options.
  Exit codes: 0 ok, 1 failure, 2 usage error.
  """

func writeError(_ message: String) {
  FileHandle.standardError.write(Data(("dwell: " + message + "\n").utf8))
}

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.isEmpty ? "--help" : arguments.removeFirst()
let code: Int32
do {
  switch command {
  case "replay": try ReplayCommand.run(arguments)
  case "report": try ReportCommand.run(arguments)
  case "demo": try DemoCommand.run(arguments)
  case "sim": try SimCommand.run(arguments)
  case "export": try StoreCommands.export(arguments)
  case "erase": try StoreCommands.erase(arguments)
  case "check": try StoreCommands.check(arguments)
  case "rules": try RulesCommand.run(arguments)
  case "kill-soak": try KillSoakCommand.run(arguments)
  case "kill-child": try KillSoakCommand.child(arguments)
  case "share-child": try KillSoakCommand.sharingChild(arguments)
  case "disk-soak": try DiskSoakCommand.run(arguments)
  case "--version", "version": print(version)
  case "--help", "-h", "help": print(help)
  default: throw UsageError("unknown command '\(command)'; run 'dwell --help'")
  }
  code = 0
} catch let error as UsageError {
  writeError(error.message)
  code = 2
} catch let error as Failure {
  writeError(error.message)
  code = 1
} catch {
  writeError("\(error)")
  code = 1
}
exit(code)
