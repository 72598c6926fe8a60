#if canImport(SwiftUI)
  internal import Dwell
  #if canImport(UIKit) && !os(watchOS)
    internal import UIKit  // and Foundation, which it re-exports
    import UIKit.UIGestureRecognizerSubclass
  #else
    internal import Foundation
  #endif

  /// What `trackAppLifecycle()` needs from the platform: on iOS, tvOS and visionOS, UIKit's
  /// background task for the commit, its clock and termination notifications, and a touch
  /// observer on every window (those there now and each new one, as its root view appears),
  /// so a SwiftUI-only app in use is never taken for idle. Each is installed once per app.
  @MainActor
  enum PlatformLifecycle {
    static func install(in app: AppLifecycle, tracker: Tracker) {
      #if canImport(UIKit) && !os(watchOS)
        app.commitInBackground(holding: BackgroundTask())
        app.observeSystemEvents(
          clockChanges: [
            UIApplication.significantTimeChangeNotification, .NSSystemClockDidChange, .NSSystemTimeZoneDidChange,
          ],
          termination: [UIApplication.willTerminateNotification])
        for scene in UIApplication.shared.connectedScenes {
          for window in (scene as? UIWindowScene)?.windows ?? []
          where app.shouldWatchTouches(in: ScreenInstance(ObjectIdentifier(window))) {
            window.addGestureRecognizer(TouchObserver(tracker: tracker))
          }
        }
      #else
        app.observeSystemEvents(
          clockChanges: [.NSSystemClockDidChange, .NSSystemTimeZoneDidChange], termination: [])
      #endif
    }
  }

  #if canImport(UIKit) && !os(watchOS)
    // The same two small classes as in DwellUIKit: an app may link either adapter alone,
    // and the adapters cannot import each other.

    /// UIKit's background task, as the assertion the app's commit runs inside.
    @MainActor
    final class BackgroundTask: BackgroundAssertion {
      func begin(expired: @escaping @MainActor @Sendable () -> Void) -> Int? {
        let identifier = UIApplication.shared.beginBackgroundTask(withName: "Dwell commit", expirationHandler: expired)
        return identifier == .invalid ? nil : identifier.rawValue
      }

      func end(_ identifier: Int) {
        UIApplication.shared.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: identifier))
      }
    }

    /// Reports a touch and fails at once: it never cancels, delays or blocks a touch.
    final class TouchObserver: UIGestureRecognizer {
      let tracker: Tracker

      init(tracker: Tracker) {
        self.tracker = tracker
        super.init(target: nil, action: nil)
        cancelsTouchesInView = false
        delaysTouchesBegan = false
        delaysTouchesEnded = false
      }

      override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        tracker.interacted()
        state = .failed
      }
    }
  #endif
#endif
