/// A small hand-written argument parser: flags with values, boolean flags, positionals.
/// ``Command`` declares what a command accepts and parses through it.
struct Arguments {
  private(set) var positionals: [String] = []
  private var values: [String: String] = [:]
  private var flags: Set<String> = []
  private var named: [String: String] = [:]
  /// The options declared, by name: their defaults.
  private var declared: [String: Command.Option] = [:]

  /// Parses `arguments` against the options a command accepts.
  init(_ arguments: [String], options: [Command.Option]) throws(UsageError) {
    for option in options { declared[option.name] = option }
    let valued = Set(options.filter { $0.value != nil }.map(\.name))
    let boolean = Set(options.filter { $0.value == nil }.map(\.name))
    var i = 0
    var onlyPositionals = false
    while i < arguments.count {
      let arg = arguments[i]
      i += 1
      if onlyPositionals || !arg.hasPrefix("--") || arg == "-" {
        positionals.append(arg)
        continue
      }
      if arg == "--" {
        onlyPositionals = true
        continue
      }
      var name = String(arg.dropFirst(2))
      var inline: String?
      if let eq = name.firstIndex(of: "=") {
        inline = String(name[name.index(after: eq)...])
        name = String(name[..<eq])
      }
      if valued.contains(name) {
        if let inline {
          values[name] = inline
        } else {
          guard i < arguments.count else { throw UsageError("--\(name) needs a value") }
          values[name] = arguments[i]
          i += 1
        }
      } else if boolean.contains(name), inline == nil {
        flags.insert(name)
      } else {
        throw UsageError("unknown option --\(name)")
      }
    }
  }

  /// The same arguments, the positionals also found by the names given (in order).
  func naming(_ names: [String]) -> Arguments {
    var copy = self
    for (name, value) in zip(names, positionals) { copy.named[name] = value }
    return copy
  }

  /// The positional argument declared as `name` (``Command`` checked that it was given).
  func argument(_ name: String) -> String { named[name] ?? "" }

  func value(_ name: String) -> String? { values[name] }
  func flag(_ name: String) -> Bool { flags.contains(name) }

  /// A non-negative number of seconds: the one given, or the option's declared default
  /// (`nil` for off, or when it declares none).
  func seconds(_ name: String) throws(UsageError) -> Duration? {
    guard let text = values[name] else {
      if case .seconds(let fallback)? = declared[name]?.fallback { return fallback }
      return nil
    }
    guard let value = Double(text), value.isFinite, value >= 0, value < 1e9 else {
      throw UsageError("--\(name) takes a number of seconds, not '\(text)'")
    }
    return .nanoseconds(Int64((value * 1e9).rounded()))
  }

  /// The whole number given, within the option's declared range, or its declared default.
  func integer(_ name: String) throws(UsageError) -> Int {
    guard case .integer(let fallback, let range, _)? = declared[name]?.fallback else {
      throw UsageError("--\(name) is not declared as a whole number with a default")
    }
    guard let text = values[name] else { return fallback }
    guard let value = Int(text), range.contains(value) else {
      throw UsageError("--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
  }
}
