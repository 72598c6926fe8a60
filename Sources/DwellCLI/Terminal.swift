internal import Dispatch
internal import Dwell
internal import DwellHarness
internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// What the standard output is (a terminal, how big, whether colour is wanted), and the
/// signals an interactive session answers: a resize redraws, Ctrl-C clears the line.
enum Terminal {
  /// Whether standard output is a terminal.
  static var isTTY: Bool { isatty(1) == 1 }

  /// Colour only on a terminal, and never with `NO_COLOR`.
  static var wantsColor: Bool { isTTY && ProcessInfo.processInfo.environment["NO_COLOR"] == nil }

  /// Columns and rows of the terminal; 80 x 24 when unknown.
  static func size() -> (width: Int, height: Int) {
    var size = winsize()
    if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
      return (Int(size.ws_col), Int(size.ws_row))
    }
    return (80, 24)
  }

  /// Writes `text` to standard output, unbuffered. A failed write (a full disk, a terminal
  /// or pipe that has gone) does not stop the caller, so it can still clean up; the first
  /// one is kept, and ``outputProblem()`` reports it when the command ends.
  static func write(_ text: String) {
    guard let code = Output.put(text, fd: 1) else { return }
    failure.withLock { if $0 == nil { $0 = code } }
  }

  /// The tool's `print`: `text` and `terminator` through ``write(_:)``, so a failed write is
  /// reported when the command ends (`Swift.print` buffers in stdio, whose errors are lost).
  static func print(_ text: String = "", terminator: String = "\n") {
    write(text + terminator)
  }

  /// Prints one line that shows text from a rule pack, a file or the user (ids, screen and
  /// level names, paths, conditions), its control characters escaped (`escapingControls`),
  /// so that text cannot clear the screen or fake a line.
  static func show(_ line: String) {
    print(escapingControls(line))
  }

  /// Writes `text` to standard error (progress bars, error messages); a failure there has
  /// nowhere to be reported.
  static func writeError(_ text: String) {
    Output.put(text, fd: 2)
  }

  /// The first failed write to standard output, written by ``write(_:)``.
  private static let failure = Locked<Int32?>(nil)

  /// "cannot write the standard output: REASON" when a write to it failed.
  static func outputProblem() -> String? {
    failure.withLock { $0 }.map { Output.failure("the standard output", $0).description }
  }

  /// Runs `handler` on `queue` whenever `signal` arrives, instead of its default action.
  /// Keep the returned source alive as long as the handling should last.
  static func on(_ signal: Int32, queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void)
    -> any DispatchSourceSignal
  {
    #if canImport(Glibc)
      Glibc.signal(signal, SIG_IGN)
    #else
      Darwin.signal(signal, SIG_IGN)
    #endif
    let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
    source.setEventHandler(handler: handler)
    source.resume()
    return source
  }
}
