public import Foundation

/// Something that happened in the app, as the tracker sees it.
///
/// The process's own start and end are not events: creating a ``Tracker`` is the launch;
/// ``Tracker/terminate()`` is a clean exit; a crash is simply a tracker that stops.
public enum LifecycleEvent: Sendable, Equatable {
  /// The app became active (interactive, in the foreground).
  case active
  /// The app resigned active but is still on screen.
  case inactive
  /// The app entered the background.
  case background
  /// The app is about to enter the foreground (not yet active).
  case foreground
  /// Screen instance `id` named `screen` became visible. The name is cleaned as every
  /// query and rule cleans it: trimmed, control characters removed, at most 200
  /// characters, never empty (format characters such as emoji joiners stay).
  case appear(screen: String, id: ScreenInstance)
  /// Screen instance `id` stopped being visible.
  case disappear(id: ScreenInstance)
  /// Visible screen instance `id` stops accruing without ending its visit: it is covered
  /// (an `overFullScreen` or `overCurrentContext` presentation leaves it in place), or its
  /// window is in the background while another window is in use. Ignored for an instance
  /// that is not visible or already paused. See <doc:Accounting>.
  case pause(id: ScreenInstance)
  /// Paused screen instance `id` accrues again. Not a visit; ignored for an instance that
  /// is not visible or not paused.
  case resume(id: ScreenInstance)
  /// The user touched the app (resets the idle timeout).
  case interact
  /// The user did something the app counts (a quiz finished, ten pages read): `count`
  /// times the action `name`, at this instant, credited to its local day, whatever the
  /// app's state. Rules count it with ``Condition/actions(_:_:)``. A count below 1 or an
  /// empty name records nothing; a count above 1,000,000 counts as 1,000,000.
  case action(_ name: String, count: Int = 1)
  /// The wall clock and/or the time zone changed. `nil` keeps the current value.
  case clockChanged(wall: WallInstant?, timeZone: TimeZone?)
  /// The process is exiting cleanly. Prefer ``Tracker/terminate()``, which also commits.
  case terminate
}
