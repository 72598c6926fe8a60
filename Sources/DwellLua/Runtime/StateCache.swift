// The plugin states last read whole, kept so that a state no handler changed is not rendered again, within a bound on the host memory they take.
internal import Dwell

/// The value each plugin's state had when last read whole: ``LuaState/matches(_:at:)``
/// compares a state with it without writing the state out. A tree costs the host many times
/// its JSON text (a nested array about sixty times), so the values kept add up to at most
/// ``textBudget`` bytes of text per pack; a state past that is written out again each time
/// its plugin ran, work charged to the pack's sustained budget like its scripts' own.
struct StateCache {
  /// The bytes of JSON text the values kept may add up to, per pack.
  static let textBudget = 256 << 10

  private var values: [String: (value: JSONValue, bytes: Int)] = [:]
  /// The bytes of text the values kept add up to.
  private(set) var bytes = 0

  /// The value kept for `plugin`'s state, if any.
  subscript(plugin: String) -> JSONValue? { values[plugin]?.value }

  /// Keeps `value`, whose text has `bytes` bytes, as `plugin`'s state (in place of the one
  /// kept before), unless it does not fit in what is left of ``textBudget``.
  mutating func keep(_ value: JSONValue, bytes: Int, for plugin: String) {
    forget(plugin)
    guard bytes >= 0, bytes <= Self.textBudget - self.bytes else { return }
    values[plugin] = (value, bytes)
    self.bytes += bytes
  }

  /// Forgets the value kept for `plugin`'s state.
  mutating func forget(_ plugin: String) {
    guard let old = values.removeValue(forKey: plugin) else { return }
    bytes -= old.bytes
  }
}
