/// A scripted condition: any code that looks at the usage so far and answers yes or no.
///
/// The Lua scripting module implements this; Swift code can too. ``holds(_:)`` runs on the
/// engine's processing context, never on the caller's thread; it must be quick.
public protocol RuleCheck: Sendable {
  /// Whether the rule should unlock, given the usage at the moment of evaluation.
  func holds(_ usage: UsageView) -> Bool
}
