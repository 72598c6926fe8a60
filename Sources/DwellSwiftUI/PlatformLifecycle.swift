#if canImport(SwiftUI)
  internal import Dwell
  #if canImport(UIKit) && !os(watchOS)
    internal import UIKit  // and Foundation, which it re-exports
  #else
    internal import Foundation
  #endif

  /// What `trackAppLifecycle()` needs from the platform: on iOS, tvOS and visionOS, UIKit's
  /// background task for the commit, its clock and termination notifications, and the
  /// interaction observers (touches, presses, pointer hover, scrolling) on every window: those
  /// there now and each one that becomes visible later, so a SwiftUI-only app in use is never
  /// taken for idle. Each is installed once per app.
  @MainActor
  enum PlatformLifecycle {
    #if canImport(UIKit) && !os(watchOS)
      private static var observers: [any NSObjectProtocol] = []
    #endif

    static func install(in app: AppLifecycle, tracker: Tracker) {
      #if canImport(UIKit) && !os(watchOS)
        app.commitInBackground(holding: BackgroundTask())
        app.observeSystemEvents(
          clockChanges: [
            UIApplication.significantTimeChangeNotification, .NSSystemClockDidChange, .NSSystemTimeZoneDidChange,
          ],
          termination: [UIApplication.willTerminateNotification])
        if app.shouldObserveNewWindows() {
          observers.append(
            NotificationCenter.default.addObserver(
              forName: UIWindow.didBecomeVisibleNotification, object: nil, queue: .main
            ) { [weak app, weak tracker] note in
              // A Notification is not Sendable: only the window (a main-actor class) goes in.
              let window = note.object as? UIWindow
              MainActor.assumeIsolated {
                if let window, let app, let tracker { InteractionObservers.watch(window, tracker: tracker, app: app) }
              }
            })
        }
        for scene in UIApplication.shared.connectedScenes {
          for window in (scene as? UIWindowScene)?.windows ?? [] {
            InteractionObservers.watch(window, tracker: tracker, app: app)
          }
        }
      #else
        app.observeSystemEvents(
          clockChanges: [.NSSystemClockDidChange, .NSSystemTimeZoneDidChange], termination: [])
      #endif
    }
  }

  #if canImport(UIKit) && !os(watchOS)
    // The same class as in DwellUIKit: an app may link either adapter alone, and the
    // adapters cannot import each other.

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
  #endif
#endif
