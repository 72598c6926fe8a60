package import Foundation

/// One app's lifecycle as the platform adapters feed it: one per tracker (``shared(for:)``),
/// shared by UIKit's `DwellUIKit.start()` and SwiftUI's `trackAppLifecycle()` in every window,
/// so that nothing is counted or observed twice.
///
/// It holds the ``scenes`` coordinator every scene feeds, which windows get interaction
/// observers, the SwiftUI windows and screens shown, the clock, time-zone and termination observers, and
/// the commit made when the app enters the background. The platform parts (gesture recognizers, background tasks) stay in
/// the adapters; what they decide is here, where it runs on Linux.
@MainActor
package final class AppLifecycle {
  /// The app's scenes, combined into one app lifecycle.
  package let scenes: SceneCoordinator
  /// The app's SwiftUI screens (`trackScreen`), paused by their scene and by the covers of
  /// the UIKit coordinator DwellUIKit sets there.
  package let screens: SwiftUIScreens
  private weak var tracker: Tracker?
  private var shownWindows: Set<ScreenInstance> = []
  private var observingNewWindows = false
  private var observers: [any NSObjectProtocol] = []
  private var observing = false
  private var assertion: (any BackgroundAssertion)?

  private init(tracker: Tracker) {
    self.tracker = tracker
    scenes = SceneCoordinator { [weak tracker] event in tracker?.record(event) }
    screens = SwiftUIScreens { [weak tracker] event in tracker?.record(event) }
    scenes.onBackground = { [weak self] in self?.commitInBackground() }
  }

  private struct Entry {
    weak var tracker: Tracker?
    let lifecycle: AppLifecycle
  }
  private static var registry: [ObjectIdentifier: Entry] = [:]

  /// The lifecycle of the app that `tracker` counts, made on first use.
  package static func shared(for tracker: Tracker) -> AppLifecycle {
    registry = registry.filter { $0.value.tracker != nil }
    if let entry = registry[ObjectIdentifier(tracker)], entry.tracker === tracker { return entry.lifecycle }
    let lifecycle = AppLifecycle(tracker: tracker)
    registry[ObjectIdentifier(tracker)] = Entry(tracker: tracker, lifecycle: lifecycle)
    return lifecycle
  }

  /// The name of Dwell's interaction observers (the gesture recognizers that see touches,
  /// presses, pointer hover and scrolling for the idle timeout, in either adapter).
  package static let observerName = "Dwell interaction observer"

  /// Whether a window whose gesture recognizers have these names needs Dwell's interaction
  /// observers: every window, those there at start and each new one, unless it has them
  /// already (added by the other adapter, or at an earlier offer). The window itself says so,
  /// not an identity kept here: a new window at a freed one's address is watched too.
  package func shouldWatch(windowWithRecognizers names: [String?]) -> Bool {
    !names.contains(Self.observerName)
  }

  /// Whether the caller should observe windows that become visible later (to give each its
  /// observers): `true` once per app, for the first adapter or window that asks.
  package func shouldObserveNewWindows() -> Bool {
    defer { observingNewWindows = true }
    return !observingNewWindows
  }

  /// A SwiftUI window's root view appeared (`trackAppLifecycle()`'s `onAppear`) in `state`:
  /// the window is one of the app's scenes again.
  package func windowAppeared(_ window: ScreenInstance, in state: SceneCoordinator.SceneState) {
    shownWindows.insert(window)
    scenes.scene(window, is: state)
  }

  /// A shown SwiftUI window's scene phase changed. Ignored once its root view has left the
  /// hierarchy: a phase change then must not bring back a window that is gone.
  package func window(_ window: ScreenInstance, is state: SceneCoordinator.SceneState) {
    guard shownWindows.contains(window) else { return }
    scenes.scene(window, is: state)
  }

  /// A SwiftUI window's root view left the hierarchy (`onDisappear`): its scene is removed
  /// (`unattached`), so a window that is gone never keeps the app active; when it was the last
  /// one, the app enters the background.
  package func windowDisappeared(_ window: ScreenInstance) {
    guard shownWindows.remove(window) != nil else { return }
    scenes.scene(window, is: .unattached)
  }

  /// Records wall-clock and time-zone changes (read from `wallClock`) and terminates the
  /// engine on termination, for notifications posted to `center`. Only the first call per
  /// app observes; later ones (another adapter, another window) do nothing.
  package func observeSystemEvents(
    clockChanges: [Notification.Name], termination: [Notification.Name], center: NotificationCenter = .default,
    wallClock: any WallClock = SystemWallClock()
  ) {
    guard !observing, let tracker else { return }
    observing = true
    for name in clockChanges {
      observers.append(
        center.addObserver(forName: name, object: nil, queue: nil) { [weak tracker] _ in
          tracker?.record(.clockChanged(wall: wallClock.now(), timeZone: wallClock.timeZone))
        })
    }
    for name in termination {
      observers.append(
        center.addObserver(forName: name, object: nil, queue: nil) { [weak tracker] _ in
          tracker?.engine?.terminate()
        })
    }
  }

  /// The background-task assertion the commit runs inside when the app enters the background.
  /// Without one, no commit is made here (the engine's checkpoints still run).
  package func commitInBackground(holding assertion: any BackgroundAssertion) {
    self.assertion = assertion
  }

  /// Commits off the main thread inside the assertion, so the app is not suspended while the
  /// store's file is locked (an app suspended holding the lock of an App Group database is
  /// killed with 0xdead10cc). The assertion ends once: after the commit, or when it expires.
  private func commitInBackground() {
    guard let assertion, let tracker else { return }
    let task = AssertionHold(assertion)
    task.begin()
    DispatchQueue.global(qos: .utility).async {
      try? tracker.engine?.commit()
      Task { @MainActor in task.end() }
    }
  }
}

/// One assertion, ended exactly once.
@MainActor
private final class AssertionHold: Sendable {
  private let assertion: any BackgroundAssertion
  private var identifier: Int?

  init(_ assertion: any BackgroundAssertion) { self.assertion = assertion }

  func begin() {
    identifier = assertion.begin { [weak self] in self?.end() }
  }

  func end() {
    guard let identifier else { return }
    self.identifier = nil
    assertion.end(identifier)
  }
}
