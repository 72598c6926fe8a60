#if canImport(UIKit) && !os(watchOS)
  internal import Dwell
  internal import UIKit

  /// Maps UIKit's application and scene notifications, interaction and clock changes to tracker
  /// events through the app's one ``AppLifecycle`` (shared with SwiftUI's
  /// `trackAppLifecycle()`), and each scene's connection (with its role) and state changes
  /// to the screen coordinator, which decides what they mean for the app and its screens.
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
      app.screens.coordinator = screens  // its covers pause SwiftUI screens too
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
        observe(UIScene.willConnectNotification, object: UIScene.self) { [weak self] in self?.connect($0) }
        let changes: [(Notification.Name, @Sendable (ScreenInstance) -> UIKitCallback)] = [
          (UIScene.willEnterForegroundNotification, { .sceneWillEnterForeground($0) }),
          (UIScene.didActivateNotification, { .sceneDidBecomeActive($0) }),
          (UIScene.willDeactivateNotification, { .sceneWillResignActive($0) }),
          (UIScene.didEnterBackgroundNotification, { .sceneDidEnterBackground($0) }),
          (UIScene.didDisconnectNotification, { .sceneDidDisconnect($0) }),
        ]
        for (name, callback) in changes {
          observe(name, object: UIScene.self) { [weak self] scene in
            guard let self, let scene else { return }
            self.connect(scene)
            self.screens.handle(callback(ScreenInstance(ObjectIdentifier(scene))))
            DwellUIKit.reconcile()
          }
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
      // Scenes and windows that exist already: their role and state now, and their interaction.
      for scene in UIApplication.shared.connectedScenes {
        if usesScenes { adopt(scene) }
        for window in (scene as? UIWindowScene)?.windows ?? [] {
          InteractionObservers.watch(window, tracker: tracker, app: app)
        }
      }
      if feedsAppLifecycle, !usesScenes, UIApplication.shared.applicationState == .active {
        app.scenes.scene(ScreenInstance("application"), is: .foregroundActive)
      }
    }

    /// A scene's connection with its role (`UISceneSession.Role`), once per scene: from
    /// `willConnectNotification`, or the first notification of a scene that connected before.
    private func connect(_ scene: UIScene?) {
      guard let scene else { return }
      let id = ScreenInstance(ObjectIdentifier(scene))
      guard !screens.knowsScene(id) else { return }
      let role = scene.session.role
      screens.handle(
        .sceneWillConnect(
          id,
          role: role == .windowApplication
            ? .windowApplication : role == .carTemplateApplication ? .carTemplateApplication : .other(role.rawValue)))
    }

    /// A scene connected before tracking started, brought to its state now the way UIKit
    /// brings a new one there.
    private func adopt(_ scene: UIScene) {
      connect(scene)
      let id = ScreenInstance(ObjectIdentifier(scene))
      switch scene.activationState {
      case .foregroundActive:
        screens.handle(.sceneWillEnterForeground(id))
        screens.handle(.sceneDidBecomeActive(id))
      case .foregroundInactive:
        screens.handle(.sceneWillEnterForeground(id))
      case .background, .unattached: break
      @unknown default: screens.handle(.sceneWillEnterForeground(id))
      }
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
