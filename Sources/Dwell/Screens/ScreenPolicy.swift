/// A view controller as Dwell sees it: enough to decide whether it is a screen and what
/// it is called, without UIKit. The UIKit adapter fills it in; tests script it.
public struct ControllerDescription: Hashable, Sendable {
  /// What kind of controller it is.
  public enum Kind: Hashable, Sendable {
    /// An ordinary controller with content.
    case content
    /// A container: navigation, tab bar, page, split view, or one the app marked.
    case container
    /// A system controller: alerts, keyboards, input and remote views.
    case system
  }

  /// The controller's identity.
  public var id: ScreenInstance
  /// Its class name, module-qualified or not (`MyApp.LessonsViewController`).
  public var className: String
  /// What kind it is.
  public var kind: Kind
  /// The kind of its parent, if it is a child controller.
  public var parentKind: Kind?
  /// A name the controller gives itself (`dwellScreenName`), if any.
  public var customName: String?
  /// The controller's own choice: `true` to be tracked, `false` to be excluded, `nil` for the policy.
  public var optIn: Bool?

  /// Creates a description.
  public init(
    id: ScreenInstance, className: String, kind: Kind = .content, parentKind: Kind? = nil,
    customName: String? = nil, optIn: Bool? = nil
  ) {
    self.id = id
    self.className = className
    self.kind = kind
    self.parentKind = parentKind
    self.customName = customName
    self.optIn = optIn
  }
}

/// Decides which controllers are screens and what they are called.
///
/// Defaults: content controllers are screens; containers (navigation, tab bar, page,
/// split view) and system controllers are not; a child of a content controller is part
/// of its parent (``ChildPolicy/partOfParent``), so a screen made of children is counted
/// once. Every choice can be changed by the app.
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
  public static let systemClasses: Set<String> = [
    "UIAlertController", "UIInputViewController", "UICompatibilityInputViewController",
    "UISystemKeyboardDockController", "UIInputWindowController", "UIEditingOverlayViewController",
    "UIPredictionViewController", "_UIRemoteViewController", "UIActivityViewController",
    "UISystemInputAssistantViewController", "_UIAlertControllerTextFieldViewController",
    "UIApplicationRotationFollowingController", "UIKeyboardCandidateGridCollectionViewController",
    "_SFAppPasswordSavingViewController", "SFSafariViewController",
  ]

  /// Container classes of UIKit.
  public static let containerClasses: Set<String> = [
    "UINavigationController", "UITabBarController", "UIPageViewController", "UISplitViewController",
    "UIHostingController<AnyView>",
  ]

  /// Creates the default policy.
  public init() {}

  /// The screen name for a controller, or `nil` when it is not a screen.
  public func screenName(for controller: ControllerDescription) -> String? {
    let className = String(controller.className.split(separator: "<").first ?? "")
    let short = String(className.split(separator: ".").last ?? "")
    if controller.optIn == false || excluded.contains(short) { return nil }
    let named = controller.customName.map(ScreenName.clean) ?? ScreenNamer.name(forClass: controller.className)
    if controller.optIn == true || included.contains(short) { return named }
    if controller.kind != .content || containers.contains(short) || Self.containerClasses.contains(short)
      || Self.systemClasses.contains(short) || short.hasPrefix("_")
    {
      return nil
    }
    if controller.parentKind == .content, children == .partOfParent { return nil }
    return named
  }
}
