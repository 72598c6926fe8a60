/// Decides which controllers are screens and what they are called.
///
/// Defaults: content controllers (classes of the app's own code) are screens; containers
/// (navigation, tab bar, page, split view, SwiftUI hosting), alerts and every class Apple
/// defines (keyboards, share sheets, pickers, composers, search controllers) are not, nor
/// are their subclasses; content inside a content controller, even through containers, is
/// part of it (``ChildPolicy/partOfParent``), so a screen made of children is counted once.
/// An app's own container (a side menu, a pager) is named in ``containers`` so that the
/// screens inside it count instead of it. Every choice can be changed by the app.
public struct ScreenPolicy: Sendable {
  /// What to do with child controllers of content controllers.
  public enum ChildPolicy: Sendable {
    /// Children count as part of their parent screen (default: no double counting).
    case partOfParent
    /// Children are screens of their own (both accrue, like a page sheet and its presenter).
    case ownScreens
  }

  /// The child policy.
  public var children: ChildPolicy = .partOfParent
  /// Class names (unqualified) the app treats as containers: its own container controllers
  /// (a side menu, a pager), which are then not screens, while the content inside them is.
  public var containers: Set<String> = []
  /// Class names never tracked.
  public var excluded: Set<String> = []
  /// Class names always tracked, even if the policy would skip them (Apple's classes too).
  public var included: Set<String> = []

  /// Classes that are never content: UIKit's containers, SwiftUI's hosting controllers
  /// (SwiftUI content is tracked with `trackScreen(_:)`, never as "AnyView") and alerts, and
  /// every subclass of one. Classes defined outside the app (Apple's) are never content either.
  package static let containerClasses: Set<String> = [
    "UINavigationController", "UITabBarController", "UIPageViewController", "UISplitViewController",
    "UIHostingController", "_UIHostingController", "UIAlertController",
  ]

  /// Creates the default policy.
  public init() {}

  /// Whether a controller is a *content controller*: its class is defined in the app (or a
  /// library linked into it), and neither it nor a superclass is a container, a hosting
  /// controller, an alert or a class named in ``containers``.
  package func isContent(_ controller: ControllerDescription) -> Bool {
    controller.origin == .app
      && !controller.classNames.contains { containers.contains($0) || Self.containerClasses.contains($0) }
  }

  /// The screen name for a controller at its `viewDidAppear`, or `nil` when it is not a
  /// screen. `insideContent` tells whether a content controller is among its ancestors.
  /// Class names are matched with the controller's superclasses too, so a subclass of an
  /// excluded or included class is treated as its superclass is.
  package func screenName(for controller: ControllerDescription, insideContent: Bool) -> String? {
    let names = controller.classNames
    func any(_ set: Set<String>) -> Bool { names.contains { set.contains($0) } }
    if controller.optIn == false || any(excluded) { return nil }
    let named = controller.customName.map(ScreenName.clean) ?? ScreenNamer.name(forClass: controller.className)
    if controller.optIn == true || any(included) { return named }
    guard isContent(controller) else { return nil }
    if insideContent, children == .partOfParent { return nil }
    return named
  }
}
