/// A view controller as Dwell sees it: enough to decide whether it is a screen, what it is
/// called and where it is shown, without UIKit. The UIKit adapter fills it in; tests script it.
package struct ControllerDescription: Hashable, Sendable {
  /// What kind of controller it is.
  package enum Kind: Hashable, Sendable {
    /// An ordinary controller with content.
    case content
    /// A container: navigation, tab bar, page, split view, hosting, or one the app marked.
    case container
    /// A system controller: alerts, keyboards, input and remote views.
    case system
  }

  /// The controller's identity.
  package var id: ScreenInstance
  /// Its class name, module-qualified or not (`MyApp.LessonsViewController`).
  package var className: String
  /// The names of its superclasses, nearest first (`UINavigationController`, `UIViewController`),
  /// so that subclasses of system classes are recognised.
  package var superclassNames: [String]
  /// What kind it is.
  package var kind: Kind
  /// The kind of its parent, if it is a child controller.
  package var parentKind: Kind?
  /// Whether some ancestor, not only the parent, is a content controller: content inside a
  /// container inside content is still part of the outer screen.
  package var isInsideContent: Bool
  /// A name the controller gives itself (`dwellScreenName`), if any.
  package var customName: String?
  /// The controller's own choice: `true` to be tracked, `false` to be excluded, `nil` for the policy.
  package var optIn: Bool?
  /// The scene (iPad or visionOS window scene) showing it, if known.
  package var scene: ScreenInstance?
  /// The window showing it, if known: full-screen presentations cover their own window only.
  package var window: ScreenInstance?
  /// Its topmost ancestor: the window's root controller or the presented controller it is
  /// inside; `nil` when it is its own root.
  package var root: ScreenInstance?

  /// Creates a description.
  package init(
    id: ScreenInstance, className: String, superclassNames: [String] = [], kind: Kind = .content,
    parentKind: Kind? = nil, isInsideContent: Bool? = nil, customName: String? = nil, optIn: Bool? = nil,
    scene: ScreenInstance? = nil, window: ScreenInstance? = nil, root: ScreenInstance? = nil
  ) {
    self.id = id
    self.className = className
    self.superclassNames = superclassNames
    self.kind = kind
    self.parentKind = parentKind
    self.isInsideContent = isInsideContent ?? (parentKind == .content)
    self.customName = customName
    self.optIn = optIn
    self.scene = scene
    self.window = window
    self.root = root
  }

  /// The class and its superclasses, unqualified and without generic arguments
  /// (`SwiftUI.UIHostingController<MyApp.Root>` is `UIHostingController`).
  var classNames: [String] { Self.unqualified([className] + superclassNames) }

  static func unqualified(_ names: [String]) -> [String] {
    names.map { name in
      let base = name.split(separator: "<", maxSplits: 1).first ?? ""
      return String(base.split(separator: ".").last ?? "")
    }
  }
}
