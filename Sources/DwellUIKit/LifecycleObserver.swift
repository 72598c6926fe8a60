#if canImport(UIKit) && !os(watchOS)
  internal import Dwell
  internal import UIKit

  /// Maps UIKit's application and scene notifications, interaction and clock changes to tracker
  /// events through the app's one ``AppLifecycle`` (shared with SwiftUI's
  /// `trackAppLifecycle()`), and scene changes to the screens of each scene.
  @MainActor
  final class LifecycleObserver: NSObject {
    let tracker: Tracker
    let app: AppLifecycle
    let screens: ScreenCoordinator
    private var observers: [any NSObjectProtocol] = []

    init(tracker: Tracker, screens: ScreenCoordinator, feedsAppLifecycle: Bool) {
      self.tracker = tracker
      self.screens = screens
      app = AppLifecycle.shared(for: tracker)
      super.init()
      screens.lifecycle = feedsAppLifecycle ? app.scenes : nil
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
        let states: [(Notification.Name, SceneCoordinator.SceneState)] = [
          (UIScene.willEnterForegroundNotification, .foregroundInactive),
          (UIScene.didActivateNotification, .foregroundActive),
          (UIScene.willDeactivateNotification, .foregroundInactive),
          (UIScene.didEnterBackgroundNotification, .background), (UIScene.didDisconnectNotification, .unattached),
        ]
        for (name, state) in states {
          observe(name, object: UIScene.self) { [weak self] in self?.scene($0, state) }
        }
      } else if feedsAppLifecycle {
        let app = ScreenInstance("application")
        let states: [(Notification.Name, SceneCoordinator.SceneState)] = [
          (UIApplication.willEnterForegroundNotification, .foregroundInactive),
          (UIApplication.didBecomeActiveNotification, .foregroundActive),
          (UIApplication.willResignActiveNotification, .foregroundInactive),
          (UIApplication.didEnterBackgroundNotification, .background),
        ]
        for (name, state) in states {
          observe(name) { [weak self] in self?.app.scenes.scene(app, is: state) }
        }
      }
      if feedsAppLifecycle { app.commitInBackground(holding: UIKitBackgroundTask()) }
      app.observeSystemEvents(
        clockChanges: [
          UIApplication.significantTimeChangeNotification, .NSSystemClockDidChange, .NSSystemTimeZoneDidChange,
        ],
        termination: [UIApplication.willTerminateNotification])
      // Every window, each new one as it becomes visible and those that exist already, gets
      // the interaction observers (once: a window that has them is left alone).
      if app.shouldObserveNewWindows() {
        observe(UIWindow.didBecomeVisibleNotification, object: UIWindow.self) { [weak self] window in
          if let window, let self { InteractionObservers.watch(window, tracker: self.tracker, app: self.app) }
        }
      }
      // Scenes and windows that exist already: their state now, and their interaction.
      for scene in UIApplication.shared.connectedScenes {
        if usesScenes { self.scene(scene, state(of: scene)) }
        for window in (scene as? UIWindowScene)?.windows ?? [] {
          InteractionObservers.watch(window, tracker: tracker, app: app)
        }
      }
      if feedsAppLifecycle, !usesScenes, UIApplication.shared.applicationState == .active {
        app.scenes.scene(ScreenInstance("application"), is: .foregroundActive)
      }
    }

    private func state(of scene: UIScene) -> SceneCoordinator.SceneState {
      switch scene.activationState {
      case .foregroundActive: return .foregroundActive
      case .foregroundInactive: return .foregroundInactive
      case .background: return .background
      case .unattached: return .unattached
      @unknown default: return .foregroundInactive
      }
    }

    private func scene(_ scene: UIScene?, _ state: SceneCoordinator.SceneState) {
      guard let scene else { return }
      screens.scene(ScreenInstance(ObjectIdentifier(scene)), is: state)
      DwellUIKit.reconcile()
    }
  }

  /// UIKit's background task, as the assertion the app's commit runs inside.
  @MainActor
  final class UIKitBackgroundTask: BackgroundAssertion {
    func begin(expired: @escaping @MainActor @Sendable () -> Void) -> Int? {
      let identifier = UIApplication.shared.beginBackgroundTask(withName: "Dwell commit", expirationHandler: expired)
      return identifier == .invalid ? nil : identifier.rawValue
    }

    func end(_ identifier: Int) {
      UIApplication.shared.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: identifier))
    }
  }
#endif
