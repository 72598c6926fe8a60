// A rule's scripted check in a Lua pack: the engine's RuleCheck, run by the pack's runtime.
internal import CLuaSandbox
internal import Dwell
internal import Foundation

/// A scripted check: a Lua function of the usage, run in its pack's state.
final class LuaCheck: RuleCheck, @unchecked Sendable {
  // @unchecked: `runtime` is set once, before the pack is published, and never again.
  let ref: Int32
  private(set) var rule: String
  private(set) var runtime: LuaRuntime?

  init(ref: Int32, rule: String) {
    self.ref = ref
    self.rule = rule
  }

  func bind(_ runtime: LuaRuntime, rule: String) {
    self.runtime = runtime
    self.rule = rule
  }

  func holds(_ usage: UsageFigures) -> Bool {
    runtime?.evaluate(ref: ref, rule: rule, usage) ?? false
  }

  var changesWithTime: Bool { runtime?.changesWithTime(ref: ref, rule: rule) ?? true }
}

extension Condition {
  func bind(to runtime: LuaRuntime, rule: String) {
    switch self {
    case .check(let scripted): (scripted.check as? LuaCheck)?.bind(runtime, rule: rule)
    case .all(let parts), .any(let parts): for part in parts { part.bind(to: runtime, rule: rule) }
    default: break
    }
  }
}
