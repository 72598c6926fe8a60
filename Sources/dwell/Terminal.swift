internal import Dispatch
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

  /// Writes `text` to standard output, unbuffered; a terminal or pipe that has gone (EIO,
  /// EPIPE) is not an error worth dying for, so the caller can still clean up.
  static func write(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { raw in
        #if canImport(Glibc)
          Glibc.write(1, raw.baseAddress, raw.count)
        #else
          Darwin.write(1, raw.baseAddress, raw.count)
        #endif
      }
      if written > 0 {
        bytes = bytes.dropFirst(written)
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        return
      }
    }
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
