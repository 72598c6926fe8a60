import Dwell
import DwellTesting
import Foundation
import Testing

/// `AppLifecycle`'s windows: which get interaction observers (every window, present and
/// future, once, known by the observers they carry), and SwiftUI windows whose root view
/// leaves the hierarchy (`trackAppLifecycle()`'s `onDisappear`).
@MainActor @Suite struct AppLifecycleWindowTests {
  typealias Device = ScreenDecisionTests.Device
  static let observer = AppLifecycle.observerName

  @Test func everyWindowWithoutDwellsObserversIsWatchedSoAnAppInUseKeepsCounting() {
    let device = Device(idleTimeout: .seconds(30))
    let lifecycle = AppLifecycle.shared(for: device.tracker)
    // Windows at start and later ones alike, from UIKit's start() or SwiftUI's trackAppLifecycle().
    #expect(lifecycle.shouldWatch(windowWithRecognizers: []))
    #expect(lifecycle.shouldWatch(windowWithRecognizers: ["_UISystemGestureGateGestureRecognizer", nil]))
    // One that has them (from the other adapter, an earlier offer, or a second copy of Dwell).
    #expect(!lifecycle.shouldWatch(windowWithRecognizers: [nil, Self.observer, Self.observer]))
    lifecycle.scenes.scene(ScreenInstance("w1"), is: .foregroundActive)
    for _ in 0..<5 {
      device.wait(20)
      device.tracker.interacted()  // what a watched window's observers send (touch, press, hover, scroll)
    }
    #expect(device.appTime == 100)
    device.wait(100)
    #expect(device.appTime == 130)  // idle after 30 s without any interaction
  }

  /// A window freed and another made at its address: identities kept by address would have
  /// taken the new window for watched.
  @Test func aNewWindowAtAFreedWindowsAddressIsWatchedToo() {
    let lifecycle = AppLifecycle.shared(for: Device().tracker)
    #expect(lifecycle.shouldWatch(windowWithRecognizers: []))
    #expect(lifecycle.shouldWatch(windowWithRecognizers: []))  // same ObjectIdentifier, a new window
  }

  @Test func newWindowsAreObservedOncePerApp() {
    let lifecycle = AppLifecycle.shared(for: Device().tracker)
    #expect(lifecycle.shouldObserveNewWindows())
    #expect(!lifecycle.shouldObserveNewWindows())  // the other adapter, another window's onAppear
    #expect(AppLifecycle.shared(for: Device().tracker).shouldObserveNewWindows())
  }

  /// trackAppLifecycle()'s view left the hierarchy: its window no longer keeps the app
  /// "foreground active" (the app counted on in the background); it comes back on appearing.
  @Test func aSwiftUIWindowWhoseRootLeavesIsRemovedAndComesBackOnAppearing() {
    let device = Device()
    let lifecycle = AppLifecycle.shared(for: device.tracker)
    let window = ScreenInstance("window-1")
    lifecycle.windowAppeared(window, in: .foregroundActive)
    device.wait(10)
    lifecycle.windowDisappeared(window)
    device.wait(50)
    #expect(device.appTime == 10)
    lifecycle.window(window, is: .foregroundActive)  // a phase change after onDisappear: ignored
    device.wait(50)
    #expect(device.appTime == 10)
    lifecycle.windowAppeared(window, in: .foregroundActive)
    device.wait(20)
    #expect(device.appTime == 30)
    lifecycle.window(window, is: .background)
    device.wait(20)
    #expect(device.appTime == 30)
  }

  /// Another window still shown keeps the app active when one leaves.
  @Test func oneWindowLeavingDoesNotStopAnother() {
    let device = Device()
    let lifecycle = AppLifecycle.shared(for: device.tracker)
    lifecycle.windowAppeared(ScreenInstance("a"), in: .foregroundActive)
    lifecycle.windowAppeared(ScreenInstance("b"), in: .foregroundActive)
    device.wait(10)
    lifecycle.windowDisappeared(ScreenInstance("a"))
    device.wait(10)
    #expect(device.appTime == 20)
    lifecycle.windowDisappeared(ScreenInstance("b"))
    device.wait(10)
    #expect(device.appTime == 20)
  }
}
