// Scripts UIKit's callbacks as UIKit makes them (../shared/uikit-traces/README.md, "The orders
// UIKit uses"), with the facts an observer reads at each one (window nil in viewWillAppear and
// after a removal in viewDidDisappear), into ScreenCoordinator.handle(_:) on a real engine.

import Dwell
import DwellTesting

/// An app process: an engine on a manual clock, its coordinator and app lifecycle.
final class UIKitScript {
  let rig = Rig()
  let engine: Engine
  let screens: ScreenCoordinator

  init(policy: ScreenPolicy = ScreenPolicy()) throws {
    let engine = try rig.launch()
    self.engine = engine
    screens = ScreenCoordinator(policy: policy) { engine.record($0) }
    screens.lifecycle = SceneCoordinator { engine.record($0) }
  }

  /// A controller's facts; `window`/`scene` are where it is shown (read only where UIKit has them).
  struct VC {
    var id: String
    var className: String
    var superclasses: [String] = ["UIViewController"]
    var origin: ControllerDescription.Origin = .app
    var parent: String?
    var presenting: String?
    var style: ControllerDescription.Style?
    var window = "w1"
    var scene = "s1"
    var customName: String?
    var optIn: Bool?
  }

  /// An app controller `MyApp.<id>` (or of `className`), a child of `parent`.
  func vc(_ id: String, _ className: String? = nil, parent: String? = nil) -> VC {
    VC(id: id, className: className ?? "MyApp.\(id)", parent: parent)
  }

  /// A system (Apple) controller.
  func system(_ id: String, _ className: String, _ superclasses: [String] = ["UIViewController"], parent: String? = nil)
    -> VC
  {
    VC(id: id, className: className, superclasses: superclasses, origin: .system, parent: parent)
  }

  func facts(
    _ vc: VC, inWindow: Bool, parent: String?? = .none, presented: Bool = false, dismissed: Bool = false,
    toParent: Bool = false, fromParent: Bool = false
  ) -> ControllerDescription {
    ControllerDescription(
      id: ScreenInstance(vc.id), className: vc.className, superclassNames: vc.superclasses, origin: vc.origin,
      parent: (parent ?? vc.parent).map { ScreenInstance($0) }, presenting: vc.presenting.map { ScreenInstance($0) },
      style: vc.style, window: inWindow ? ScreenInstance(vc.window) : nil,
      windowScene: inWindow ? ScreenInstance(vc.scene) : nil, animated: true, isMovingToParent: toParent,
      isMovingFromParent: fromParent, isBeingPresented: presented, isBeingDismissed: dismissed,
      customName: vc.customName,
      optIn: vc.optIn)
  }

  func handle(_ callback: UIKitCallback) { screens.handle(callback) }

  /// `scene(_:willConnectTo:)`, and with `active` the way to foreground-active.
  func connect(_ scene: String = "s1", role: SceneRole = .windowApplication, active: Bool = true) {
    handle(.sceneWillConnect(ScreenInstance(scene), role: role))
    if active { activate(scene) }
  }
  func activate(_ scene: String = "s1") {
    handle(.sceneWillEnterForeground(ScreenInstance(scene)))
    handle(.sceneDidBecomeActive(ScreenInstance(scene)))
  }
  func resign(_ scene: String = "s1") { handle(.sceneWillResignActive(ScreenInstance(scene))) }
  func background(_ scene: String = "s1") {
    resign(scene)
    handle(.sceneDidEnterBackground(ScreenInstance(scene)))
  }

  /// viewWillAppear then viewDidAppear of each, containers first.
  func appear(_ controllers: VC..., presented: Bool = false) {
    for vc in controllers { handle(.viewWillAppear(facts(vc, inWindow: false, presented: presented))) }
    for vc in controllers { handle(.viewDidAppear(facts(vc, inWindow: true, presented: presented))) }
  }

  /// viewWillDisappear then viewDidDisappear (window nil by then) of each.
  func disappear(_ controllers: VC..., dismissed: Bool = false) {
    for vc in controllers { handle(.viewWillDisappear(facts(vc, inWindow: true, dismissed: dismissed))) }
    for vc in controllers { handle(.viewDidDisappear(facts(vc, inWindow: false, dismissed: dismissed))) }
  }

  /// Presents `vc` (and its children) with `style` from `presenting`, in UIKit's order:
  /// for `fullScreen`/`currentContext` the `covered` controllers disappear after it appears.
  func present(
    _ vc: VC, children: [VC] = [], style: ControllerDescription.Style, from presenting: String,
    covering covered: [VC] = []
  ) {
    var vc = vc
    vc.presenting = presenting
    vc.style = style
    let kids = children.map { child -> VC in
      var child = child
      child.presenting = presenting
      child.style = style
      return child
    }
    for item in covered { handle(.viewWillDisappear(facts(item, inWindow: true))) }
    handle(.viewWillAppear(facts(vc, inWindow: false, presented: true)))
    for kid in kids { handle(.viewWillAppear(facts(kid, inWindow: false))) }
    handle(.viewDidAppear(facts(vc, inWindow: true, presented: true)))
    for kid in kids { handle(.viewDidAppear(facts(kid, inWindow: true))) }
    for item in covered { handle(.viewDidDisappear(facts(item, inWindow: false))) }
    presented[vc.id] = (vc, kids, covered)
  }
  private var presented: [String: (VC, [VC], [VC])] = [:]

  /// Dismisses what ``present(_:children:style:from:covering:)`` presented: the covered
  /// controllers appear again, then the presented one disappears, its window nil.
  func dismiss(_ id: String) {
    guard let (vc, kids, covered) = presented.removeValue(forKey: id) else { return }
    handle(.viewWillDisappear(facts(vc, inWindow: true, dismissed: true)))
    for kid in kids { handle(.viewWillDisappear(facts(kid, inWindow: true))) }
    for item in covered { handle(.viewWillAppear(facts(item, inWindow: false))) }
    for item in covered { handle(.viewDidAppear(facts(item, inWindow: true))) }
    handle(.viewDidDisappear(facts(vc, inWindow: false, dismissed: true)))
    for kid in kids { handle(.viewDidDisappear(facts(kid, inWindow: false))) }
  }

  func wait(_ seconds: Double) { rig.advance(seconds) }

  /// A screen's seconds and visits.
  func figures(_ name: String) -> (Double, Int) {
    let screen = engine.report().screens[name]
    return (roundedSeconds(screen?.time ?? .zero), screen?.visits ?? 0)
  }
  var appTime: Double { roundedSeconds(engine.report().app.time) }
  var sessions: Int { engine.report().sessions }
  var screenNames: Set<String> { Set(engine.report().screens.filter { $0.value.visits > 0 }.keys) }
}

/// `seconds(_:)` of Support.swift, under a name the members of UIKitScript do not shadow.
func roundedSeconds(_ duration: Duration) -> Double { seconds(duration) }
