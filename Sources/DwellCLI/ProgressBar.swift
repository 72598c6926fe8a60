// A progress bar on stderr for long jobs.
internal import Foundation

/// A progress bar on stderr, shown only when stderr is a terminal and the job is long.
final class ProgressBar {
  let total: Int
  let enabled: Bool
  init(total: Int) {
    self.total = total
    enabled = isatty(2) == 1 && total >= 20_000
  }
  func update(_ done: Int) {
    guard enabled, total > 0 else { return }
    let width = 30
    let filled = done * width / total
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    Terminal.writeError("\r[\(bar)] \(done * 100 / total)%")
  }
  func finish() {
    if enabled { Terminal.writeError("\r\u{1B}[K") }
  }
}
