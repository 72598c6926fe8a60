#if canImport(UIKit) && !os(watchOS)
  internal import Dwell
  internal import UIKit
  import UIKit.UIGestureRecognizerSubclass

  /// Maps UIKit's application and scene notifications, touches and clock changes to
  /// tracker events. Several scenes count app time once (``SceneCoordinator``).
  @MainActor
  final class LifecycleObserver: NSObject, UIGestureRecognizerDelegate {
    let tracker: Tracker
    let scenes: SceneCoordinator
    private var observers: [any NSObjectProtocol] = []
    private var watchedWindows = Set<ObjectIdentifier>()

    init(tracker: Tracker) {
      self.tracker = tracker
      scenes = SceneCoordinator { event in tracker.record(event) }
      super.init()
      let center = NotificationCenter.default
      // A Notification is not Sendable: only its object, cast to a main-actor (so Sendable)
      // UIKit class, enters the main actor.
      func observe<Object: Sendable>(
        _ name: Notification.Name, object: Object.Type, _ body: @escaping @MainActor @Sendable (Object?) -> Void
      ) {
        observers.append(
          center.addObserver(forName: name, object: nil, queue: .main) { note in
            let object = note.object as? Object
            MainActor.assumeIsolated { body(object) }
          })
      }
      func observe(_ name: Notification.Name, _ body: @escaping @MainActor @Sendable () -> Void) {
        observers.append(
          center.addObserver(forName: name, object: nil, queue: .main) { _ in MainActor.assumeIsolated { body() } })
      }
      let usesScenes = Bundle.main.object(forInfoDictionaryKey: "UIApplicationSceneManifest") != nil
      if usesScenes {
        observe(UIScene.willEnterForegroundNotification, object: UIScene.self) { [weak self] in
          self?.scene($0, .foregroundInactive)
        }
        observe(UIScene.didActivateNotification, object: UIScene.self) { [weak self] in
          self?.scene($0, .foregroundActive)
        }
        observe(UIScene.willDeactivateNotification, object: UIScene.self) { [weak self] in
          self?.scene($0, .foregroundInactive)
        }
        observe(UIScene.didEnterBackgroundNotification, object: UIScene.self) { [weak self] in
          self?.scene($0, .background)
        }
        observe(UIScene.didDisconnectNotification, object: UIScene.self) { [weak self] in
          self?.scene($0, .unattached)
        }
      } else {
        let app = ScreenInstance("application")
        observe(UIApplication.willEnterForegroundNotification) { [weak self] in
          self?.scenes.scene(app, is: .foregroundInactive)
        }
        observe(UIApplication.didBecomeActiveNotification) { [weak self] in
          self?.scenes.scene(app, is: .foregroundActive)
        }
        observe(UIApplication.willResignActiveNotification) { [weak self] in
          self?.scenes.scene(app, is: .foregroundInactive)
        }
        observe(UIApplication.didEnterBackgroundNotification) { [weak self] in
          self?.scenes.scene(app, is: .background)
        }
      }
      observe(UIApplication.didEnterBackgroundNotification) { [weak self] in self?.commitInBackgroundTask() }
      observe(UIApplication.willTerminateNotification) { [weak self] in self?.tracker.engine?.terminate() }
      for name in [
        UIApplication.significantTimeChangeNotification, .NSSystemClockDidChange, .NSSystemTimeZoneDidChange,
      ] {
        observe(name) { [weak self] in
          self?.tracker.record(.clockChanged(wall: WallInstant(Date()), timeZone: TimeZone.current))
        }
      }
      observe(UIWindow.didBecomeVisibleNotification, object: UIWindow.self) { [weak self] window in
        if let window { self?.watchTouches(in: window) }
      }
      if UIApplication.shared.applicationState == .active {
        scenes.scene(ScreenInstance(usesScenes ? "launch" : "application"), is: .foregroundActive)
      }
    }

    private func scene(_ scene: UIScene?, _ state: SceneCoordinator.SceneState) {
      guard let scene else { return }
      scenes.scene(ScreenInstance(ObjectIdentifier(scene)), is: state)
      scenes.scene(ScreenInstance("launch"), is: .unattached)
    }

    /// The final commit runs on a background queue inside a background task, so it
    /// finishes even as the app is suspended; no SQLite lock outlives it.
    private func commitInBackgroundTask() {
      let task = BackgroundTask()
      task.begin()
      let tracker = tracker
      DispatchQueue.global(qos: .utility).async {
        try? tracker.engine?.commit()
        Task { @MainActor in task.end() }
      }
    }

    /// Observes touches in a window without intercepting or delaying them.
    private func watchTouches(in window: UIWindow) {
      guard watchedWindows.insert(ObjectIdentifier(window)).inserted else { return }
      let recognizer = TouchObserver(tracker: tracker)
      recognizer.cancelsTouchesInView = false
      recognizer.delaysTouchesBegan = false
      recognizer.delaysTouchesEnded = false
      recognizer.delegate = self
      window.addGestureRecognizer(recognizer)
    }

    nonisolated func gestureRecognizer(
      _ gestureRecognizer: UIGestureRecognizer,
      shouldRecognizeSimultaneouslyWith otherGestureRecognizer: UIGestureRecognizer
    ) -> Bool { true }
  }

  /// One background task, ended once (by the commit or by the expiration handler).
  @MainActor
  final class BackgroundTask {
    private var identifier = UIBackgroundTaskIdentifier.invalid

    func begin() {
      identifier = UIApplication.shared.beginBackgroundTask(withName: "Dwell commit") { [self] in end() }
    }

    func end() {
      guard identifier != .invalid else { return }
      UIApplication.shared.endBackgroundTask(identifier)
      identifier = .invalid
    }
  }

  /// Reports a touch and then fails at once, so no other recognizer or view is affected.
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
  }
#endif
