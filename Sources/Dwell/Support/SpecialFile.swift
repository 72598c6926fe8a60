// Telling a regular file from a special one (a FIFO, a device, a socket, a directory)
// before opening it: opening a FIFO waits for a writer for ever, and a device may never end.

internal import Foundation

#if canImport(Darwin)
  internal import Darwin
#elseif canImport(Glibc)
  internal import Glibc
#endif

/// A file that is not a regular file, named as a message says it ("is a FIFO").
package enum SpecialFile: String, Sendable {
  case fifo = "a FIFO"
  case device = "a device"
  case socket = "a socket"
  case directory = "a directory"
  case other = "a special file"

  /// What the file at `path` is when it exists and is not a regular file (links followed);
  /// nil for a regular file or a path where nothing is.
  package static func at(_ path: String) -> SpecialFile? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFIFO: return .fifo
    case S_IFCHR, S_IFBLK: return .device
    case S_IFSOCK: return .socket
    case S_IFDIR: return .directory
    default: return .other
    }
  }
}
