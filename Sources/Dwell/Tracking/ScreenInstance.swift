/// The identity of one on-screen instance: a view controller, a SwiftUI view, a window.
///
/// Two appearances with the same identity are the same visit; two instances with the same
/// screen name visible at once count once. Build one from an object (no allocation) or a string.
public struct ScreenInstance: Hashable, Sendable, CustomStringConvertible {
  enum Storage: Hashable, Sendable {
    case object(UInt)
    case name(String)
  }
  let storage: Storage

  /// The instance identified by an object, such as a view controller.
  public init(_ object: ObjectIdentifier) { storage = .object(UInt(bitPattern: object)) }
  /// The instance identified by a number the caller keeps unique.
  package init(number: UInt) { storage = .object(number) }
  /// The instance identified by a string (trace ids, SwiftUI view identities).
  public init(_ name: String) { storage = .name(name) }

  public var description: String {
    switch storage {
    case .object(let n): return "#\(n)"
    case .name(let s): return s
    }
  }
}
