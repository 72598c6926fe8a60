// An option of a `dwell` command, declared once: its name, placeholder, help and default,
// which both `--help` and the parsed value come from.

extension Command {
  /// An option: `--name VALUE` when `value` names a placeholder, a flag when it is nil.
  /// Its default is declared here once: the help text shows it ("(default 1000)") and
  /// ``Arguments`` returns it when the option is not given, so the two cannot disagree.
  struct Option: Sendable {
    var name: String
    var value: String?
    /// What it does, without its default (``fallback`` adds that).
    var help: String
    var fallback: Fallback?

    /// What an option is when not given.
    enum Fallback: Sendable {
      /// A whole number within `range`; `shown` is said in help instead of the number when
      /// the number depends on the machine ("the number of cores").
      case integer(Int, range: ClosedRange<Int>, shown: String?)
      /// A number of seconds, or off (`nil`).
      case seconds(Duration?)
      /// Worked out when the command runs (a path beside the pack, today at 09:00): said in
      /// words, the command's code computing it.
      case described(String)
    }

    static func value(_ name: String, _ placeholder: String, _ help: String, default described: String? = nil) -> Option
    {
      Option(name: name, value: placeholder, help: help, fallback: described.map { .described($0) })
    }

    static func integer(
      _ name: String, _ placeholder: String, _ help: String, default value: Int, in range: ClosedRange<Int>,
      shown: String? = nil
    ) -> Option {
      Option(name: name, value: placeholder, help: help, fallback: .integer(value, range: range, shown: shown))
    }

    static func seconds(_ name: String, _ help: String, default value: Duration?) -> Option {
      Option(name: name, value: "S", help: help, fallback: .seconds(value))
    }

    static func flag(_ name: String, _ help: String) -> Option {
      Option(name: name, value: nil, help: help, fallback: nil)
    }

    /// `--name VALUE` or `--name`.
    var synopsis: String { "--" + name + (value.map { " " + $0 } ?? "") }

    /// The help with its default: "Simulated users (default 1000)".
    var helpText: String {
      switch fallback {
      case nil: return help
      case .integer(let value, _, let shown): return help + " (default\(shown.map { ": \($0)" } ?? " \(value)"))"
      case .seconds(let value?): return help + " (default \(Self.words(value)))"
      case .seconds(nil): return help + " (default off)"
      case .described(let text): return help + " (default: \(text))"
      }
    }

    /// Seconds as typed: "1800", "0.25".
    static func words(_ duration: Duration) -> String {
      let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
      return seconds == seconds.rounded() && abs(seconds) < 1e15 ? "\(Int(seconds))" : "\(seconds)"
    }
  }
}
