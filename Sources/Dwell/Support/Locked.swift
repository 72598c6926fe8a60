#if canImport(Darwin)
  internal import Darwin
#elseif canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#endif

/// A value behind a lock: `os_unfair_lock` on Apple platforms, `pthread_mutex_t` elsewhere.
///
/// Dwell uses this instead of `Synchronization.Mutex` because ThreadSanitizer understands
/// these locks on every platform (it reports false races through `Mutex` on Linux). Same
/// shape as `Mutex`.
///
/// The value lives behind a pointer rather than in a stored property, and `withLock` is
/// inlinable: a class property would be checked for exclusive access at run time on every
/// call, and a generic call from another module would not be specialised (together about
/// a third of the cost of a scripted check).
package final class Locked<Value: ~Copyable>: @unchecked Sendable {
  // @unchecked: `storage` is only touched between acquire() and release().
  #if canImport(Darwin)
    private let lock: UnsafeMutablePointer<os_unfair_lock>
  #else
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
  #endif
  @usableFromInline let storage: UnsafeMutablePointer<Value>

  /// Creates a lock around `value`.
  package init(_ value: consuming Value) {
    storage = .allocate(capacity: 1)
    storage.initialize(to: value)
    #if canImport(Darwin)
      lock = .allocate(capacity: 1)
      lock.initialize(to: os_unfair_lock())
    #else
      lock = .allocate(capacity: 1)
      lock.initialize(to: pthread_mutex_t())
      pthread_mutex_init(lock, nil)
    #endif
  }

  deinit {
    #if !canImport(Darwin)
      pthread_mutex_destroy(lock)
    #endif
    lock.deinitialize(count: 1)
    lock.deallocate()
    storage.deinitialize(count: 1)
    storage.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable @inline(__always)
  package func withLock<Result: ~Copyable, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
    acquire()
    defer { release() }
    return try body(&storage.pointee)
  }

  @usableFromInline func acquire() {
    #if canImport(Darwin)
      os_unfair_lock_lock(lock)
    #else
      pthread_mutex_lock(lock)
    #endif
  }

  @usableFromInline func release() {
    #if canImport(Darwin)
      os_unfair_lock_unlock(lock)
    #else
      pthread_mutex_unlock(lock)
    #endif
  }
}
