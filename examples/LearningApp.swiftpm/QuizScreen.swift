import DwellUIKit
import UIKit

/// A base controller that adopts `DwellScreen` with its defaults (no name, no opt-in): its
/// subclasses are tracked under their cleaned class names unless they name themselves.
class CourseViewController: TrackedViewController, DwellScreen {}

/// A subclass that names itself: Dwell counts it as "Quiz". `DwellScreen`'s requirements are
/// optional Objective-C ones, so this property (it matches a requirement of a protocol its
/// superclass adopted) is `@objc` and Dwell finds it on the object at run time; a protocol
/// extension's default would have been used instead, whatever the subclass declared.
final class QuizViewController: CourseViewController {
  var dwellScreenName: String? { "Quiz" }

  /// Compile-time proof of the above: `#selector` accepts only members exposed to
  /// Objective-C ("argument of '#selector' refers to property 'dwellScreenName' that is not
  /// exposed to Objective-C" with the former Swift-only protocol).
  static let screenNameSelector = #selector(getter: QuizViewController.dwellScreenName)
}
