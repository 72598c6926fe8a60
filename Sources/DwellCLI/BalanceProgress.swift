// The balance run's progress on stderr.
internal import Dwell
internal import DwellBalance
internal import DwellHarness
internal import Foundation

/// The progress bar of a balance run: on stderr, only when stderr is a terminal; safe
/// from any worker.
final class BalanceProgress: Sendable {
  let total: Int
  let label: String?
  let enabled: Bool
  private let shown = Locked(-1)

  init(total: Int, label: String?) {
    self.total = total
    self.label = label
    enabled = isatty(2) == 1
  }

  func update(_ done: Int) {
    guard enabled, total > 0 else { return }
    let percent = done * 100 / total
    let show = shown.withLock { last -> Bool in
      guard percent != last else { return false }
      last = percent
      return true
    }
    guard show else { return }
    let width = 40
    let filled = done * width / total
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    let prefix = label.map { "\($0) " } ?? ""
    Terminal.writeError("\r\(prefix)[\(bar)] \(percent)% of \(total) users")
  }

  func finish() {
    if enabled { Terminal.writeError("\r\u{1B}[K") }
  }
}
