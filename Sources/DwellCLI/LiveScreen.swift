// The sim's live view on a terminal.
internal import Dispatch
internal import Dwell
internal import DwellHarness
internal import Foundation

/// The interactive screen: the view above, the last answer, the prompt; redrawn after each
/// command, on a reload, on a resize and on Ctrl-C, never wider or taller than the terminal.
final class LiveScreen: @unchecked Sendable {
  // @unchecked: `answer` is touched only under `lock`.
  private let simulator: Simulator
  private let color: Bool
  private let lock = NSLock()
  private var answer = ""

  init(_ simulator: Simulator, color: Bool) {
    self.simulator = simulator
    self.color = color
  }

  /// Redraws; `answer` replaces the text shown under the view when given.
  func draw(answer: String? = nil) {
    lock.withLock {
      if let answer { self.answer = answer }
      let (width, height) = Terminal.size()
      simulator.answerWidth = width
      var shown =
        self.answer.isEmpty
        ? []
        : self.answer.split(separator: "\n", omittingEmptySubsequences: false)
          .flatMap { TerminalText.wrap(String($0), width) }
      // The answer may take all but the header line and the prompt; beyond that it is cut.
      let room = max(0, height - 2)
      if shown.count > room {
        let cut = shown.count - max(0, room - 1)
        shown =
          Array(shown.prefix(max(0, room - 1)))
          + (room > 0 ? ["… \(cut) more lines (a taller terminal shows them)"] : [])
      }
      let view = simulator.render(width: width, height: max(1, height - 1 - shown.count), color: color)
      let text = "\u{1B}[H\u{1B}[2J" + ([view] + shown).joined(separator: "\n") + "\n> "
      Terminal.write(text)
    }
  }
}
