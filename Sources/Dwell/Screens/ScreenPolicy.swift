/// Decides which controllers are screens and what they are called.
///
/// Defaults: content controllers are screens; containers (navigation, tab bar, page, split
/// view, SwiftUI hosting) and system controllers are not, nor are their subclasses; content
/// inside a content controller, even through containers, is part of it
/// (``ChildPolicy/partOfParent``), so a screen made of children is counted once. Every
/// choice can be changed by the app.
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
  /// Class names (unqualified) the app treats as containers.
  public var containers: Set<String> = []
  /// Class names never tracked.
  public var excluded: Set<String> = []
  /// Class names always tracked, even if the policy would skip them.
  public var included: Set<String> = []

  /// System classes that are never screens unless included.
  package static let systemClasses: Set<String> = [
    "UIAlertController", "UIInputViewController", "UICompatibilityInputViewController",
    "UISystemKeyboardDockController", "UIInputWindowController", "UIEditingOverlayViewController",
    "UIPredictionViewController", "_UIRemoteViewController", "UIActivityViewController",
    "UISystemInputAssistantViewController", "_UIAlertControllerTextFieldViewController",
    "UIApplicationRotationFollowingController", "UIKeyboardCandidateGridCollectionViewController",
    "_SFAppPasswordSavingViewController", "SFSafariViewController",
  ]

  /// Container classes of UIKit and SwiftUI, and their subclasses. A hosting controller is a
  /// container: SwiftUI content is tracked with `trackScreen(_:)`, never as "AnyView".
  package static let containerClasses: Set<String> = [
    "UINavigationController", "UITabBarController", "UIPageViewController", "UISplitViewController",
    "UIHostingController", "_UIHostingController",
  ]

  /// Creates the default policy.
  public init() {}

  /// The kind of a controller of class `className` whose superclasses are `superclassNames`
  /// (nearest first): a container or a system controller when it is one of those classes, or
  /// a subclass of one, whether the class is UIKit's, SwiftUI's or named in ``containers``.
  package func kind(className: String, superclassNames: [String]) -> ControllerDescription.Kind {
    let names = ControllerDescription.unqualified([className] + superclassNames)
    if names.contains(where: { containers.contains($0) || Self.containerClasses.contains($0) }) { return .container }
    if names.contains(where: { Self.systemClasses.contains($0) }) || names.first?.hasPrefix("_") == true {
      return .system
    }
    return .content
  }

  /// The screen name for a controller, or `nil` when it is not a screen. Class names are
  /// matched with the controller's superclasses too, so a subclass of a container, a system
  /// class or an excluded class is treated as its superclass is.
  package func screenName(for controller: ControllerDescription) -> String? {
    let names = controller.classNames
    func any(_ set: Set<String>) -> Bool { names.contains { set.contains($0) } }
    if controller.optIn == false || any(excluded) { return nil }
    let named = controller.customName.map(ScreenName.clean) ?? ScreenNamer.name(forClass: controller.className)
    if controller.optIn == true || any(included) { return named }
    if controller.kind != .content || any(containers) || any(Self.containerClasses) || any(Self.systemClasses)
      || names.first?.hasPrefix("_") == true
    {
      return nil
    }
    if controller.isInsideContent, children == .partOfParent { return nil }
    return named
  }
}
