#if canImport(SwiftUI) && canImport(UIKit) && !os(watchOS)
  internal import Dwell
  internal import SwiftUI
  internal import UIKit

  /// Tells a SwiftUI screen which UIKit window it is in and which view controller's view
  /// holds it (the nearest one on the responder chain, usually a `UIHostingController`), so
  /// that UIKit presentations covering that window pause it. An empty UIKit view put behind
  /// the screen (`background`); it reports after each `didMoveToWindow()`, on the next turn
  /// of the main actor, so that no SwiftUI state changes during a view update.
  struct ScreenPlacementProbe: UIViewRepresentable {
    let report: @MainActor (_ window: ScreenInstance?, _ host: ScreenInstance?) -> Void

    func makeUIView(context: Context) -> ProbeView {
      let view = ProbeView()
      view.isUserInteractionEnabled = false
      view.report = report
      return view
    }

    func updateUIView(_ view: ProbeView, context: Context) {
      view.report = report
    }

    /// The probe's view: reports its window and host whenever its window changes.
    final class ProbeView: UIView {
      var report: (@MainActor (ScreenInstance?, ScreenInstance?) -> Void)?

      override func didMoveToWindow() {
        super.didMoveToWindow()
        Task { @MainActor [weak self] in self?.send() }
      }

      private func send() {
        // UIView's `next` is the controller whose view it is, else its superview.
        var responder: UIResponder? = next
        var steps = 0
        while let current = responder, !(current is UIViewController), steps < 512 {
          responder = current.next
          steps += 1
        }
        let host = (responder as? UIViewController).map { ScreenInstance(ObjectIdentifier($0)) }
        report?(window.map { ScreenInstance(ObjectIdentifier($0)) }, host)
      }
    }
  }
#endif
