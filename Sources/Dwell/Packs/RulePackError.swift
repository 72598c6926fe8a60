/// Why ``Tracker/installRulePack(_:signature:)`` refused a pack. The pack in force (the
/// last good one) stays in force and on disk.
public enum RulePackError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The configuration names no trusted keys (``Tracker/Configuration/trustedPackKeys``).
  case noTrustedKeys
  /// The signature is not a valid Ed25519 signature of these bytes by any trusted key: a
  /// changed or truncated pack, a wrong key, or a damaged signature.
  case invalidSignature
  /// The bytes are signed but are not a rule pack document
  /// (`{"format": "dwell-rule-pack/1", "files": {...}}`, at most 8 MiB).
  case malformedArchive(String)
  /// The pack's version is not newer than the pack it would replace: `offered` is at most
  /// `current`, the version of the installed pack (or, with a rules directory, is below
  /// the bundled pack's ``Tracker/Configuration/bundledPackVersion``). An archive without a
  /// version is version 0. An old signed pack replayed cannot replace a newer one.
  case notNewer(offered: Int, current: Int)
  /// The pack did not load (a script error, say) or its rules clash with the app's.
  case refused(RuleError)
  /// The pack could not be saved beside the store (it is not in force either).
  case notSaved(String)

  public var description: String {
    switch self {
    case .noTrustedKeys: return "no trusted keys are configured for signed rule packs"
    case .invalidSignature: return "the signature does not match the pack and a trusted key"
    case .malformedArchive(let why): return "not a rule pack: \(why)"
    case .notNewer(let offered, let current):
      return "the pack's version \(offered) does not replace version \(current): only a newer pack does"
    case .refused(let error): return "the pack did not load: \(error)"
    case .notSaved(let why): return "the pack could not be saved: \(why)"
    }
  }
}
