#if canImport(UIKit) && !os(watchOS)
  internal import Dwell
  internal import UIKit
  import UIKit.UIGestureRecognizerSubclass

  /// The gesture recognizers that tell the tracker the user is there (the idle timeout):
  /// touches and hardware presses, pointer hover, trackpad and mouse scrolling. They observe
  /// without intercepting or delaying anything: none cancels or delays touches, all recognize
  /// alongside every other recognizer, and the touch observer fails at once. Each carries
  /// ``AppLifecycle/observerName``, by which a window that has them is known (either adapter).
  @MainActor
  enum InteractionObservers {
    /// Adds the observers to `window` unless it has them.
    static func watch(_ window: UIWindow, tracker: Tracker, app: AppLifecycle) {
      let names = (window.gestureRecognizers ?? []).map(\.name)
      guard app.shouldWatch(windowWithRecognizers: names) else { return }
      let recognizers: [UIGestureRecognizer] = [
        TouchObserver(tracker: tracker), HoverObserver(tracker: tracker), ScrollObserver(tracker: tracker),
      ]
      for recognizer in recognizers {
        recognizer.name = AppLifecycle.observerName
        recognizer.cancelsTouchesInView = false
        recognizer.delaysTouchesBegan = false
        recognizer.delaysTouchesEnded = false
        recognizer.delegate = Simultaneous.shared
        window.addGestureRecognizer(recognizer)
      }
    }
  }

  /// Lets the observers recognize alongside every other recognizer (a gesture recognizer
  /// holds its delegate weakly: this one lives for the process).
  @MainActor
  final class Simultaneous: NSObject, UIGestureRecognizerDelegate {
    static let shared = Simultaneous()

    nonisolated func gestureRecognizer(
      _ gestureRecognizer: UIGestureRecognizer,
      shouldRecognizeSimultaneouslyWith otherGestureRecognizer: UIGestureRecognizer
    ) -> Bool { true }
  }

  /// Reports a touch or a hardware press (a key, a remote's button: those UIKit delivers to
  /// the window's recognizers, see `allowedPressTypes`) and then fails at once, so no other
  /// recognizer or view is affected.
  final class TouchObserver: UIGestureRecognizer {
    let tracker: Tracker

    init(tracker: Tracker) {
      self.tracker = tracker
      super.init(target: nil, action: nil)
    }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
      tracker.interacted()
      state = .failed
    }

    override func pressesBegan(_ presses: Set<UIPress>, with event: UIPressesEvent) {
      tracker.interacted()
      state = .failed
    }
  }

  /// Reports the pointer (trackpad, mouse) moving over the window.
  final class HoverObserver: UIHoverGestureRecognizer {
    let tracker: Tracker

    init(tracker: Tracker) {
      self.tracker = tracker
      super.init(target: nil, action: nil)
      addTarget(self, action: #selector(changed))
    }

    @objc func changed() { tracker.interacted() }
  }

  /// Reports trackpad and mouse-wheel scrolling, which are no touches: a pan recognizer for
  /// scroll events only (`allowedTouchTypes` empty: fingers are the touch observer's, and
  /// this one never competes with a scroll view's pan for them).
  final class ScrollObserver: UIPanGestureRecognizer {
    let tracker: Tracker

    init(tracker: Tracker) {
      self.tracker = tracker
      super.init(target: nil, action: nil)
      allowedScrollTypesMask = .all
      allowedTouchTypes = []
      addTarget(self, action: #selector(changed))
    }

    @objc func changed() { tracker.interacted() }
  }
#endif
