/// A view controller at one UIKit callback, as plain values: what an observer can read from
/// the live controller at that moment (the facts of the UIKit traces' table), without UIKit.
/// The UIKit adapter fills it in from the controller; the trace tests read it from JSON.
/// ``ScreenCoordinator/handle(_:)`` makes every decision from these facts.
package struct ControllerDescription: Hashable, Sendable {
  /// Where a controller's class is defined.
  package enum Origin: Hashable, Sendable {
    /// In the app's own code, or a library linked into it.
    case app
    /// By Apple: UIKit, SwiftUI, PhotosUI, MessageUI, private classes.
    case system
  }

  /// `modalPresentationStyle` as the app set it (`automatic` stays `automatic`).
  package enum Style: String, Hashable, Sendable, CaseIterable {
    case fullScreen, pageSheet, formSheet, currentContext, custom, overFullScreen, overCurrentContext, popover
    case automatic
    /// `none`, and any style a later SDK adds: covers nothing.
    case other
  }

  /// The controller's identity, stable for its life.
  package var id: ScreenInstance
  /// Its class as the runtime names it (`LearnApp.HomeViewController`, `UINavigationController`).
  package var className: String
  /// Its superclasses, nearest first, ending with `UIViewController` (empty for a plain one).
  package var superclassNames: [String]
  /// Where its class is defined.
  package var origin: Origin
  /// `parent` now.
  package var parent: ScreenInstance?
  /// `presentingViewController` now.
  package var presenting: ScreenInstance?
  /// The presentation style of the presented controller it belongs to; `nil` when `presenting` is.
  package var style: Style?
  /// `viewIfLoaded?.window` now (`nil` inside `viewWillAppear` and after a removal).
  package var window: ScreenInstance?
  /// That window's `windowScene` now.
  package var windowScene: ScreenInstance?
  /// The callback's argument.
  package var animated: Bool
  /// `isMovingToParent` now.
  package var isMovingToParent: Bool
  /// `isMovingFromParent` now.
  package var isMovingFromParent: Bool
  /// `isBeingPresented` now.
  package var isBeingPresented: Bool
  /// `isBeingDismissed` now.
  package var isBeingDismissed: Bool
  /// A name the controller gives itself (`DwellScreen.dwellScreenName`), if any.
  package var customName: String?
  /// The controller's own choice (`DwellScreen.dwellIsTracked`): `true` always tracked,
  /// `false` never, `nil` to follow the policy.
  package var optIn: Bool?

  /// Creates a description.
  package init(
    id: ScreenInstance, className: String, superclassNames: [String] = ["UIViewController"], origin: Origin = .app,
    parent: ScreenInstance? = nil, presenting: ScreenInstance? = nil, style: Style? = nil,
    window: ScreenInstance? = nil, windowScene: ScreenInstance? = nil, animated: Bool = false,
    isMovingToParent: Bool = false, isMovingFromParent: Bool = false, isBeingPresented: Bool = false,
    isBeingDismissed: Bool = false, customName: String? = nil, optIn: Bool? = nil
  ) {
    self.id = id
    self.className = className
    self.superclassNames = superclassNames
    self.origin = origin
    self.parent = parent
    self.presenting = presenting
    self.style = style
    self.window = window
    self.windowScene = windowScene
    self.animated = animated
    self.isMovingToParent = isMovingToParent
    self.isMovingFromParent = isMovingFromParent
    self.isBeingPresented = isBeingPresented
    self.isBeingDismissed = isBeingDismissed
    self.customName = customName
    self.optIn = optIn
  }

  /// The class and its superclasses, unqualified, without generic arguments and without the
  /// prefix of a class KVO made at run time (`SwiftUI.UIHostingController<MyApp.Root>` is
  /// `UIHostingController`, `NSKVONotifying_MyApp.Lessons` is `Lessons`).
  var classNames: [String] { Self.unqualified([className] + superclassNames) }

  static func unqualified(_ names: [String]) -> [String] {
    names.map { name in
      let base = ScreenNamer.withoutRuntimePrefix(name).split(separator: "<", maxSplits: 1).first ?? ""
      return String(base.split(separator: ".").last ?? "")
    }
  }
}

extension ControllerDescription.Origin {
  /// The origin of a class whose bundle (`Bundle(for:)`) is at `bundlePath`: the app's when
  /// that is the app's main bundle or inside it (its frameworks, a library linked into it),
  /// Apple's otherwise (UIKit, SwiftUI and the other system frameworks). `Bundle(for:)` gives
  /// "the bundle for the framework in which aClass is defined, or the main bundle object if
  /// aClass was not dynamically loaded or is not defined in a framework" (Apple's
  /// documentation), so the adapter asks it about the class a controller reports, never a
  /// subclass made at run time (which no framework defines).
  package init(bundlePath: String, mainBundlePath: String) {
    func trimmed(_ path: String) -> Substring {
      var path = Substring(path)
      while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
      return path
    }
    let bundle = trimmed(bundlePath)
    let main = trimmed(mainBundlePath)
    self = bundle == main || bundle.hasPrefix(main + "/") ? .app : .system
  }
}
