import Dwell
import Foundation
import Testing

/// Each option of `dwell` declares its default once (#25): `--help` shows it in one form,
/// "(default N)" or "(default: words)" at the end of the option's text, made from the value
/// the command uses, and an option given its default behaves as when left out.
@Suite struct CommandOptionTests {
  static let commands = [
    "replay", "report", "demo", "sim", "test", "balance", "export", "erase", "check", "rules check", "kill-soak",
    "disk-soak",
  ]

  /// The option rows of a command's help, each with its wrapped lines joined.
  static func options(_ command: String) throws -> [String] {
    let help = try CommandLineTests.dwell(command.split(separator: " ").map(String.init) + ["--help"]).stdout
    let block = help.components(separatedBy: "OPTIONS:\n").dropFirst().first?.components(separatedBy: "\n\n")[0] ?? ""
    var rows: [String] = []
    for line in block.split(separator: "\n") {
      if line.hasPrefix("  --") {
        rows.append(String(line))
      } else if !rows.isEmpty {
        rows[rows.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
      }
    }
    return rows.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
  }

  @Test func everyDefaultIsShownOnceAtTheEndOfItsOption() throws {
    for command in Self.commands {
      let rows = try Self.options(command)
      #expect(!rows.isEmpty, "\(command)")
      for row in rows where row.contains("default") {
        #expect(row.components(separatedBy: "default").count == 2, "\(command): \(row)")
        #expect(row.hasSuffix(")") && row.contains(" (default"), "\(command): \(row)")
        let tail = row.components(separatedBy: " (default").last ?? ""
        #expect(!tail.dropLast().contains(")"), "the default is not the row's last words: \(command): \(row)")
      }
    }
  }

  /// The engine's defaults are the ones the help states: the option is declared with them.
  @Test func theEnginesDefaultsAreTheOnesShown() throws {
    let configuration = Engine.Configuration()
    let session = Int(configuration.sessionTimeout.components.seconds)
    let interval = Int(configuration.checkpointInterval.components.seconds)
    for command in ["sim", "replay", "balance"] {
      let rows = try Self.options(command)
      #expect(rows.contains { $0.hasPrefix("--session-timeout S") && $0.hasSuffix("(default \(session))") }, "\(rows)")
      #expect(rows.contains { $0.hasPrefix("--idle-timeout S") && $0.hasSuffix("(default off)") }, "\(rows)")
    }
    #expect(
      try Self.options("replay").contains {
        $0.hasPrefix("--checkpoint-interval S") && $0.hasSuffix("(default \(interval))")
      })
  }

  /// A number's range comes from the same declaration as its default.
  @Test func aNumbersRangeIsDeclaredWithIt() throws {
    let run = try CommandLineTests.dwell(["demo", "--days", "0"])
    #expect(run.status == 2)
    #expect(run.stderr.contains("--days takes a whole number from 1 to 3650"), "\(run.stderr)")
  }
}
