/// The scripted-condition seam: what DwellLua's checks implement, and the opaque value a
/// ``Condition/check(_:)`` holds.

/// A scripted condition: code that looks at the usage so far and answers yes or no.
///
/// The Lua scripting module implements this (`package`: apps write declarative conditions
/// or Lua). ``holds(_:)`` runs where the engine processes events: its scheduler's queue, and
/// the caller's thread inside `setRules` and `terminate`, which process before they return; it must be quick.
package protocol RuleCheck: Sendable {
  /// Whether the rule should unlock, given the usage at the moment of evaluation.
  func holds(_ usage: UsageFigures) -> Bool
  /// Whether its answer may change with time alone, so the engine runs it at every second
  /// of app time; `false` when its last run read only figures that change on events (and
  /// at midnight, when the engine runs it too). Checks that do not say so change with time.
  var changesWithTime: Bool { get }
}

extension RuleCheck {
  package var changesWithTime: Bool { true }
}

extension Condition {
  /// A scripted check, as a ``Condition`` holds it: opaque, made by a rule pack
  /// (a Lua rule's `check` function in DwellLua).
  public struct ScriptedCheck: Sendable {
    /// The code that answers.
    package let check: any RuleCheck

    /// Wraps a check.
    package init(_ check: any RuleCheck) { self.check = check }
  }
}
