import Dwell
import DwellUIKit
import SwiftUI
import UIKit

/// A UIKit screen, tracked explicitly (no swizzling) by subclassing TrackedViewController.
final class LessonViewController: TrackedViewController, DwellScreen {
  var dwellScreenName: String? { "Lessons" }  // a lesson is part of Lessons, as the rules say

  override func viewDidLoad() {
    super.viewDidLoad()
    view.backgroundColor = .systemBackground
    let label = UILabel()
    label.text = "Lesson 1: stay a while, Dwell is counting."
    label.numberOfLines = 0
    label.translatesAutoresizingMaskIntoConstraints = false
    view.addSubview(label)
    NSLayoutConstraint.activate([
      label.centerXAnchor.constraint(equalTo: view.centerXAnchor),
      label.centerYAnchor.constraint(equalTo: view.centerYAnchor),
      label.widthAnchor.constraint(lessThanOrEqualTo: view.widthAnchor, constant: -40),
    ])
  }
}

/// Hosts the UIKit screen in the SwiftUI navigation stack.
struct LessonScreen: UIViewControllerRepresentable {
  func makeUIViewController(context: Context) -> LessonViewController { LessonViewController() }
  func updateUIViewController(_ controller: LessonViewController, context: Context) {}
}
