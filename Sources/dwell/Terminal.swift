internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// What the standard output is: a terminal (and how big), and whether colour is wanted.
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
}
