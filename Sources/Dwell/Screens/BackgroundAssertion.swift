/// A platform's way to keep the app running briefly in the background (UIKit's
/// `beginBackgroundTask(withName:expirationHandler:)`).
@MainActor
package protocol BackgroundAssertion: AnyObject {
  /// Starts an assertion; calls `expired` on the main actor if the system ends it first.
  /// Returns an identifier for ``end(_:)``, or `nil` if none was granted.
  func begin(expired: @escaping @MainActor @Sendable () -> Void) -> Int?
  /// Ends the assertion `identifier`.
  func end(_ identifier: Int)
}
