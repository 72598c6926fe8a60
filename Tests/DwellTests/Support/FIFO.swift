// A FIFO for the tests that check one is refused before it is opened, failing (not hanging)
// when it is opened instead.
import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Makes a FIFO at `path` and runs `body` with it there. Opening a FIFO waits for a writer, so
/// a writer thread opens it meanwhile: code that opens it instead of refusing it reads an
/// empty file and its test fails instead of hanging. The writer, left waiting when the FIFO
/// was refused, is let go afterwards, and the FIFO removed.
func withFIFO(at path: String, _ body: () throws -> Void) throws {
  unlink(path)
  guard mkfifo(path, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
  defer { unlink(path) }
  let writer = Thread {
    let fd = open(path, O_WRONLY)
    if fd >= 0 { close(fd) }
  }
  writer.start()
  defer {
    let fd = open(path, O_RDONLY | O_NONBLOCK)
    if fd >= 0 { close(fd) }
  }
  try body()
}
